/**
 * "Use this device's position" on a form with latitude and longitude fields (the venue in the
 * business settings, the home area on a shifter's profile): shows the button where the browser can
 * tell a position, fills the fields on a click (nothing is saved until the form's Save) and clears a
 * pasted map link, which would otherwise be read on save instead. The status line says what
 * happened, in the form's words.
 */
export interface DevicePositionForm {
  button: HTMLButtonElement | null;
  status: HTMLElement | null;
  latitude: HTMLInputElement;
  longitude: HTMLInputElement;
  mapLink: HTMLInputElement | null;
  /** Decimals kept: 6 for a venue's door, 3 (about 100 m) for an area. */
  decimals: number;
  options: PositionOptions;
  /** The status after filling; `clearedLink` when a typed map link was replaced. */
  filled: (p: GeolocationPosition, clearedLink: boolean) => string;
  /** Called after the fields change, so a preview can follow them. */
  onFilled: () => void;
}

export function offerDevicePosition(form: DevicePositionForm): void {
  const { button, status } = form;
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
        form.latitude.value = p.coords.latitude.toFixed(form.decimals);
        form.longitude.value = p.coords.longitude.toFixed(form.decimals);
        const cleared = form.mapLink !== null && form.mapLink.value.trim() !== '';
        if (form.mapLink) form.mapLink.value = '';
        form.onFilled();
        status.textContent = form.filled(p, cleared);
      },
      (e) => {
        busy = false;
        status.textContent =
          e.code === e.PERMISSION_DENIED
            ? 'This browser may not tell the position: allow it in the browser, or paste a map link.'
            : "This device's position could not be found: try again, or paste a map link.";
      },
      form.options,
    );
  });
}
