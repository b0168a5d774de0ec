import { eachIsland } from '@/web/client/island';

/**
 * The sign-up form, told this device's time zone: the hidden shifter zone gets the browser's IANA
 * zone (the server checks it against the zones it knows), and a business zone still at the server's
 * UTC default gets it too. Without script the server places the new account itself.
 */
eachIsland<Record<string, never>>('browser-zone', (form) => {
  let zone = '';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return;
  }
  if (!zone) return;
  const own = form.querySelector<HTMLInputElement>('input[type="hidden"][data-browser-zone]');
  if (own && !own.value) own.value = zone;
  const business = form.querySelector<HTMLInputElement>('input[name="timezone"]');
  if (business && (business.value === '' || business.value === 'UTC')) business.value = zone;
});
