import { offerDevicePosition } from '@/web/client/device-position';
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

  offerDevicePosition({
    button,
    status,
    latitude,
    longitude,
    mapLink,
    decimals: 6,
    options: { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    filled: (p, cleared) =>
      `Filled in from this device's position (to about ${Math.max(1, Math.round(p.coords.accuracy))} m)` +
      `${cleared ? ', in place of the map link' : ''}. Save the settings to keep it.`,
    onFilled: say,
  });
});
