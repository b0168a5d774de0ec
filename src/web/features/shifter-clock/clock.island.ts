/**
 * The shifter's clock (src/web/features/shifter-clock/clock.tsx): takes over each punch form. On a tap it
 * asks for the location (only then), shows its accuracy and the distance to the business, uploads the
 * photo through clock_photo and punches through the API; where hard mode refuses it offers "I'm here".
 * Without network the punch is kept on the phone with the time it was made and sent when the network
 * returns (src/web/features/shifter-clock/punch-queue.client.ts; the service worker's Background Sync too, where there is one).
 */
import { client, newIdempotencyKey, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';
import { enqueuePunch, type QueuedPunch, queuedPunches, SYNC_TAG, sendQueuedPunches } from './punch-queue.client';

interface Place {
  latitude: number | null;
  longitude: number | null;
  geofence_radius_m: number | null;
  require_clock_photo: boolean;
  hard_geofence: boolean;
}
interface Props {
  shiftId: string;
  side: 'in' | 'out';
  businessName: string;
  /** The business's zone (ClockIslandProps). */
  timeZone: string;
  place: Place | null;
  /** The clock window's bounds from the server (services/shifts clockWindow): the form waits until
   * `opensAt` and closes at `closesAt`, so the page never offers a punch the service refuses. */
  opensAt: string | null;
  closesAt: string | null;
}

const csrf = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

function meters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(a));
}

const distanceText = (m: number) => (m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`);

function position(): Promise<GeolocationPosition | string> {
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
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 30_000 },
    );
  });
}

/** A time as the cards show it: the business's wall clock (src/web/format.ts timeIn), whatever the phone's zone. */
const clockTime = (iso: string, timeZone: string | undefined) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));

/** Registers the one service worker (offline shell, Background Sync of queued punches). */
function registerWorker() {
  if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // The page as it stands now, kept for the service worker to show without network.
  if (navigator.onLine && 'caches' in window) {
    void caches
      .open('shifter-pages-v1')
      .then((cache) => cache.add(location.pathname))
      .catch(() => undefined);
  }
}

async function askBackgroundSync() {
  try {
    const reg = (await navigator.serviceWorker?.ready) as
      | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
      | undefined;
    await reg?.sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here: the page's `online` event sends the queue.
  }
}

function mountPunch(form: HTMLFormElement, props: Props) {
  const status = form.querySelector<HTMLElement>('[data-status]')!;
  const where = form.querySelector<HTMLElement>('.punch-where')!;
  const photoInput = form.querySelector<HTMLInputElement>('[data-photo]');
  const photoField = form.querySelector<HTMLElement>('.punch-photo-field');
  const override = form.querySelector<HTMLElement>('[data-override]');
  const overrideBox = override?.querySelector<HTMLInputElement>('input');
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  if (photoField) photoField.hidden = false;
  followWindow(form, props);
  const say = (text: string, kind: 'info' | 'error' = 'info') => {
    status.textContent = text;
    status.classList.toggle('field-error', kind === 'error');
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const photo = photoInput?.files?.[0] ?? null;
    if (props.place?.require_clock_photo && !photo) {
      say(`${props.businessName} asks for a photo with each punch: take one first.`, 'error');
      photoInput?.focus();
      return;
    }
    button.disabled = true;
    const madeAt = new Date().toISOString();
    say('Finding your location…');
    const pos = await position();
    let lat: number | null = null;
    let lon: number | null = null;
    if (typeof pos === 'string') where.textContent = pos;
    else {
      lat = pos.coords.latitude;
      lon = pos.coords.longitude;
      const p = props.place;
      const acc = `accuracy ±${Math.round(pos.coords.accuracy)} m`;
      if (p?.latitude != null && p.longitude != null) {
        const d = meters(lat, lon, p.latitude, p.longitude);
        const inside =
          p.geofence_radius_m == null
            ? ''
            : d <= p.geofence_radius_m
              ? ` (within ${p.geofence_radius_m} m)`
              : ` (outside ${p.geofence_radius_m} m)`;
        where.textContent = `You are ${distanceText(d)} from ${props.businessName}${inside}; ${acc}.`;
      } else where.textContent = `Location found, ${acc}.`;
    }
    const imHere = overrideBox?.checked ?? false;
    const punch: QueuedPunch = {
      id: newIdempotencyKey(),
      shiftId: props.shiftId,
      side: props.side,
      deviceTime: madeAt,
      timeZone: props.timeZone,
      idempotencyKey: newIdempotencyKey(),
      photoKey: newIdempotencyKey(),
      photo,
      photoName: photo?.name ?? null,
      lat,
      lon,
      imHere,
      csrf: csrf(),
    };
    const queue = async () => {
      await enqueuePunch(punch);
      await askBackgroundSync();
      say(
        `No network: your ${props.side === 'in' ? 'clock-in' : 'clock-out'} at ${clockTime(madeAt, props.timeZone)} is saved on this phone and is sent when you are back online.`,
      );
      form.dataset.queued = 'true';
      document.dispatchEvent(new CustomEvent('clock-queue-changed'));
    };
    if (!navigator.onLine) return queue();

    say('Sending…');
    let photoUrl: string | undefined;
    if (photo) {
      const formData = new FormData();
      formData.append('file', photo, photo.name || 'photo.jpg');
      let res: Response | null = null;
      try {
        res = await fetch(`/v1/shift_request/${encodeURIComponent(props.shiftId)}/clock_photo?side=${props.side}`, {
          method: 'POST',
          body: formData,
          headers: { 'X-CSRF-Token': csrf(), 'Idempotency-Key': punch.photoKey, Accept: 'application/json' },
          credentials: 'same-origin',
        });
      } catch {
        return queue();
      }
      const data = (await res.json().catch(() => null)) as { url?: string; error?: { message: string } } | null;
      if (!res.ok) {
        button.disabled = false;
        say(data?.error?.message ?? 'The photo could not be stored.', 'error');
        photoInput?.focus();
        return;
      }
      photoUrl = data?.url;
    }
    const body = {
      ...(lat !== null && lon !== null ? { lat, lon } : {}),
      ...(photoUrl ? { photo_url: photoUrl } : {}),
      ...(imHere ? { im_here: true } : {}),
    };
    const shift = client.v1.shift_request[':id'];
    const r = await send(
      (props.side === 'in' ? shift.clock_in : shift.clock_out).$post(
        { param: { id: encodeURIComponent(props.shiftId) }, json: body },
        write({ idempotencyKey: punch.idempotencyKey }),
      ),
    );
    if (r.ok) {
      // The page words the notice from the stored punch (its fixed keys, src/web/features/shifter-clock).
      location.assign(`${location.pathname}?notice=clocked_${props.side}&shift=${encodeURIComponent(props.shiftId)}`);
      return;
    }
    if (r.status === 0) return queue();
    button.disabled = false;
    if (r.error.code === 'GEOFENCE-ERR' && override) {
      override.hidden = false;
      say(`${r.error.message} If you are at ${props.businessName}, tick "I'm here" and tap again.`, 'error');
      overrideBox?.focus();
      return;
    }
    const opens = (r.error.details as { opens_at?: string } | undefined)?.opens_at;
    say(opens ? `${r.error.message} It opens at ${clockTime(opens, props.timeZone)}.` : r.error.message, 'error');
  });
}

/** The longest wait a timer is set for (setTimeout's own limit is about 24.8 days). */
const MAX_WAIT_MS = 86_400_000;

/**
 * Opens the form when the window opens and closes it when it closes, by the phone's clock, with the
 * bounds the server sent: the card's "opens at" line gives way to the button, and after the close
 * the card says to ask the business. A page kept offline does the same.
 */
function followWindow(form: HTMLFormElement, props: Props) {
  const card = form.closest<HTMLElement>('[data-shift]');
  const opensLine = card?.querySelector<HTMLElement>('[data-opens]');
  const closedLine = card?.querySelector<HTMLElement>('[data-closed]');
  const update = () => {
    const now = Date.now();
    const notYet = props.opensAt !== null && now < Date.parse(props.opensAt);
    const closed = props.closesAt !== null && now > Date.parse(props.closesAt) && form.dataset.queued !== 'true';
    form.hidden = notYet || closed;
    if (opensLine) opensLine.hidden = !notYet;
    if (closedLine) closedLine.hidden = !closed;
    const next = [props.opensAt, props.closesAt]
      .map((t) => (t === null ? Number.NaN : Date.parse(t) - now))
      .filter((ms) => ms > 0 && ms <= MAX_WAIT_MS);
    // A second past the bound, so the check at the timer falls on the right side of it.
    if (next.length) setTimeout(update, Math.min(...next) + 1000);
  };
  update();
}

/** The queue's line at the top of the page: what waits on the phone, and what was just sent. */
function mountQueue(el: HTMLElement) {
  const line = el.querySelector<HTMLElement>('[data-queue-status]')!;
  const show = async () => {
    const list = await queuedPunches();
    const waiting = list.filter((p) => !p.refused);
    const refused = list.filter((p) => p.refused);
    const parts: string[] = [];
    if (waiting.length)
      parts.push(
        `${waiting.length === 1 ? 'One punch is' : `${waiting.length} punches are`} saved on this phone, to send when you are online.`,
      );
    for (const p of refused)
      parts.push(
        `Not recorded: your ${p.side === 'in' ? 'clock-in' : 'clock-out'} made at ${clockTime(p.deviceTime, p.timeZone)}: ${p.refused}`,
      );
    el.dataset.waiting = String(waiting.length);
    if (parts.length || !line.dataset.sent) line.textContent = parts.join(' ');
  };
  const flush = async () => {
    if (!navigator.onLine) return show();
    const out = await sendQueuedPunches();
    await show();
    if (out.sent.length) {
      const p = out.sent[0]!;
      location.assign(`${location.pathname}?notice=sent_${p.side}&shift=${encodeURIComponent(p.shiftId)}`);
    }
  };
  window.addEventListener('online', () => void flush());
  window.addEventListener('offline', () => void show());
  document.addEventListener('clock-queue-changed', () => void show());
  navigator.serviceWorker?.addEventListener('message', (e: MessageEvent) => {
    if ((e.data as { type?: string } | null)?.type === 'clock-punches-sent') void show();
  });
  void flush();
}

registerWorker();
eachIsland<Props>('clock', (el, props) => mountPunch(el as HTMLFormElement, props));
eachIsland<Record<string, never>>('clock-queue', (el) => mountQueue(el));
