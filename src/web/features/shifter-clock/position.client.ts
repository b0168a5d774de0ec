/**
 * The phone's position for the clock island (clock.island.ts): asked at the tap, and followed before
 * it only where the phone already granted this page its position (never asked on load).
 */
const GEO_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 10_000, maximumAge: 30_000 };

export function position(): Promise<GeolocationPosition | string> {
  if (!('geolocation' in navigator)) return Promise.resolve('This browser cannot tell your location.');
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve(p),
      (e) =>
        resolve(
          e.code === e.PERMISSION_DENIED
            ? 'Location not allowed: the punch is sent without it.'
            : 'Your location could not be found: the punch is sent without it.',
        ),
      GEO_OPTIONS,
    );
  });
}

/** The forms that want the phone's position as it moves, before any tap. */
const watchers = new Set<(p: GeolocationPosition) => void>();
let watching = false;

/**
 * Follows the phone's position only where the phone already allows this page to know it (the
 * permission granted earlier): the card then says the distance before the tap. Never asks: the
 * question comes with the first tap, as before.
 */
export function watchPosition(listener: (p: GeolocationPosition) => void) {
  watchers.add(listener);
  if (watching || !('geolocation' in navigator) || !navigator.permissions) return;
  watching = true;
  void navigator.permissions
    .query({ name: 'geolocation' })
    .then((state) => {
      if (state.state !== 'granted') return;
      navigator.geolocation.watchPosition(
        (p) => {
          for (const l of watchers) l(p);
        },
        () => undefined,
        GEO_OPTIONS,
      );
    })
    .catch(() => undefined);
}
