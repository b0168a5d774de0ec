import { eachIsland } from '@/web/client/island';

/**
 * The Welcome page's time zone: the browser's own zone is chosen in the list, unless the person has
 * chosen one already (`pick` false, a form shown again with what they sent). A zone the list does not
 * offer leaves the server's choice.
 */
export interface TimeZoneProps {
  pick: boolean;
}

eachIsland<TimeZoneProps>('time-zone', (el, props) => {
  const select = el.querySelector('select');
  if (!props.pick || !select) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const options = [...select.options];
  // The list is the server's runtime's names; this browser may call the same zone by another (Asia/Kolkata, Asia/Calcutta).
  const same = options.find((o) => o.value === zone) ?? options.find((o) => sameZone(o.value, zone));
  if (same) select.value = same.value;
});

function sameZone(listed: string, zone: string): boolean {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: listed }).resolvedOptions().timeZone === zone;
  } catch {
    return false;
  }
}
