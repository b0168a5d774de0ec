import { eachIsland } from '@/web/client/island';
import { locationSentence } from './venue-location.model';

/**
 * The settings' clock-in rules, enhanced: "Use this device's position" fills the latitude and
 * longitude from the browser's geolocation (nothing is saved until the form's Save), and the
 * sentence under the radius follows the fields as they change. Without script the section is the
 * same form, the position typed or read from a pasted map link.
 */
eachIsland<Record<string, never>>('venue-location', (section) => {
  const input = (name: string) => section.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const latitude = input('latitude');
  const longitude = input('longitude');
  const radius = input('geofence_radius_m');
  const mapLink = input('map_link');
  const preview = section.querySelector<HTMLElement>('#location-preview');
  const button = section.querySelector<HTMLButtonElement>('[data-device-position]');
  const status = section.querySelector<HTMLElement>('#device-position-status');
  if (!latitude || !longitude || !radius) return;

  const say = () => {
    if (preview) preview.textContent = locationSentence(latitude.value, longitude.value, radius.value);
  };
  for (const el of [latitude, longitude, radius]) el.addEventListener('change', say);

  if (!button || !status || !('geolocation' in navigator)) return;
  button.hidden = false;
  // Busy, not disabled: a disabled button would drop the keyboard's focus.
  let busy = false;
  button.addEventListener('click', () => {
    if (busy) return;
    busy = true;
    status.textContent = "Finding this device's position…";
    navigator.geolocation.getCurrentPosition(
      (p) => {
        busy = false;
        latitude.value = p.coords.latitude.toFixed(6);
        longitude.value = p.coords.longitude.toFixed(6);
        // The device's position replaces a pasted link, which would otherwise be read on save instead.
        const cleared = mapLink !== null && mapLink.value.trim() !== '';
        if (mapLink) mapLink.value = '';
        say();
        status.textContent =
          `Filled in from this device's position (to about ${Math.max(1, Math.round(p.coords.accuracy))} m)` +
          `${cleared ? ', in place of the map link' : ''}. Save the settings to keep it.`;
      },
      (e) => {
        busy = false;
        status.textContent =
          e.code === e.PERMISSION_DENIED
            ? 'This browser may not tell the position: allow it in the browser, or paste a map link.'
            : "This device's position could not be found: try again, or paste a map link.";
      },
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  });
});
