import { offerDevicePosition } from '@/web/client/device-position';
import { eachIsland } from '@/web/client/island';
import { coordinateText, numberOf } from '@/web/features/settings/venue-location.model';

/**
 * The profile's home area, enhanced as the business settings' venue is: "Use this device's position"
 * fills the latitude and longitude from the browser's geolocation (nothing is saved until the
 * form's Save), and the sentence under them follows the fields. Without script the fields are typed,
 * or a pasted map link is read on save.
 */
eachIsland<Record<string, never>>('home-area', (section) => {
  const input = (name: string) => section.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const latitude = input('home_latitude');
  const longitude = input('home_longitude');
  const mapLink = input('map_link');
  const preview = section.querySelector<HTMLElement>('#home-area-preview');
  const button = section.querySelector<HTMLButtonElement>('[data-device-position]');
  const status = section.querySelector<HTMLElement>('#device-position-status');
  if (!latitude || !longitude) return;

  const say = () => {
    const lat = numberOf(latitude.value);
    const lon = numberOf(longitude.value);
    if (!preview) return;
    preview.textContent =
      typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
        ? `Distances count from ${coordinateText(lat)}, ${coordinateText(lon)}.`
        : 'Enter a latitude and a longitude, use this device’s position, or paste a map link.';
  };
  for (const el of [latitude, longitude]) el.addEventListener('change', say);

  offerDevicePosition({
    button,
    status,
    latitude,
    longitude,
    mapLink,
    // Three decimals (about 100 m): an area, not the doorstep.
    decimals: 3,
    options: { enableHighAccuracy: false, timeout: 15_000, maximumAge: 60_000 },
    filled: () => "Filled in from this device's position. Save the profile to keep it.",
    onFilled: say,
  });
});
