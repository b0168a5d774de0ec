/**
 * The shifter's clock (src/web/features/shifter-clock/clock.tsx): takes over each punch form. It shows
 * the camera button (with a preview of the photo taken); on a tap it asks for the location (before
 * it only where the phone already allows it), shows its accuracy, the distance to the business and
 * what the business makes of it by the service's own geofence rule (lib/geo.ts), uploads the photo
 * through clock_photo and punches through the API; where hard mode refuses the position it says so on
 * the button and offers "I'm here", and sends nothing it would refuse. Without network the
 * punch is kept on the phone with the time it was made, the card saying "Clocked in at HH:MM · waiting
 * to send" in place of its form, and sent when the network returns
 * (src/web/features/shifter-clock/punch-queue.client.ts; the service worker's Background Sync too,
 * where there is one). Refusals are said in the worker's words (clock.model.ts).
 */
import { geofenceCheck } from '@/lib/geo';
import { client, newIdempotencyKey, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';
import {
  clockTime,
  type PunchRefusal,
  punchButtonWords,
  punchedWords,
  refusalWords,
  WAITING_HINT,
  WAITING_WORDS,
  whereWords,
} from './clock.model';
import { KEPT_PAGES } from '../shifter/kept-page.model';
import { position, watchPosition } from './position.client';
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

/** Registers the one service worker (offline shell, Background Sync of queued punches). */
function registerWorker() {
  if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // The page as it stands now, kept for the service worker to show without network.
  if (navigator.onLine && 'caches' in window) {
    void caches
      .open(KEPT_PAGES)
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

/** Where the card is, for the words of a refusal (clock.model.ts refusalWords). */
const placeOf = (props: Props) => ({
  business: props.businessName,
  side: props.side,
  timeZone: props.timeZone,
  photoRequired: props.place?.require_clock_photo ?? false,
  script: true,
  now: Date.now(),
});

/**
 * The camera button: the file input behind its label, shown now that script runs (the plain form
 * sends no file). A chosen photo is previewed (a data: URL, which the page's CSP allows for images)
 * and can be removed; the label then offers another.
 */
function mountCamera(form: HTMLFormElement, props: Props) {
  const field = form.querySelector<HTMLElement>('[data-photo-field]');
  const input = form.querySelector<HTMLInputElement>('[data-photo]');
  const label = form.querySelector<HTMLElement>('[data-photo-label]');
  const preview = form.querySelector<HTMLElement>('[data-photo-preview]');
  const remove = preview?.querySelector<HTMLButtonElement>('[data-photo-remove]');
  if (!field || !input || !label || !preview) return;
  field.hidden = false;
  const what = props.side === 'in' ? 'clock-in' : 'clock-out';
  let img: HTMLImageElement | null = null;
  const clear = () => {
    img?.remove();
    img = null;
    preview.hidden = true;
    label.textContent = 'Take a photo';
  };
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return clear();
    const reader = new FileReader();
    reader.addEventListener('load', () => {
      if (typeof reader.result !== 'string' || input.files?.[0] !== file) return;
      img ??= preview.insertBefore(document.createElement('img'), preview.firstChild);
      img.alt = `The photo for your ${what} at ${props.businessName}`;
      img.src = reader.result;
      img.dataset.photoImage = '';
      preview.hidden = false;
      label.textContent = 'Take another photo';
    });
    reader.readAsDataURL(file);
  });
  remove?.addEventListener('click', () => {
    input.value = '';
    clear();
    input.focus();
  });
}

function mountPunch(form: HTMLFormElement, props: Props) {
  const status = form.querySelector<HTMLElement>('[data-status]')!;
  const where = form.querySelector<HTMLElement>('[data-where]')!;
  const photoInput = form.querySelector<HTMLInputElement>('[data-photo]');
  const override = form.querySelector<HTMLElement>('[data-override]');
  const overrideBox = override?.querySelector<HTMLInputElement>('input');
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  mountCamera(form, props);
  const windowNow = followWindow(form, props);
  const waiting = followQueue(form, props, windowNow);
  const say = (text: string, kind: 'info' | 'error' = 'info') => {
    status.textContent = text;
    status.classList.toggle('field-error', kind === 'error');
  };
  const refused = (r: PunchRefusal) => say(refusalWords(r, placeOf(props)), 'error');
  /** The last position the phone gave, and what the geofence rule makes of it (null: none yet). */
  let last: GeolocationPosition | null = null;
  const check = () => {
    if (!last || !props.place) return null;
    return geofenceCheck(props.place, last.coords.latitude, last.coords.longitude, overrideBox?.checked ?? false);
  };
  /** A punch on its way: the button stays disabled whatever the position says meanwhile. */
  let busy = false;
  const idle = () => {
    busy = false;
    button.disabled = Boolean(check()?.refused);
  };
  /** The card as the position stands: the distance and its verdict, the button's words, "I'm here" where hard mode asks for it. */
  const show = () => {
    if (!last) return check();
    const c = check();
    where.textContent = whereWords(c, {
      business: props.businessName,
      side: props.side,
      accuracyM: last.coords.accuracy,
      imHere: overrideBox?.checked ?? false,
    });
    where.classList.toggle('punch-where-far', Boolean(c?.outside) && props.side === 'in');
    if (props.side === 'in' && c?.outside && props.place?.hard_geofence && override) override.hidden = false;
    button.textContent = punchButtonWords(props.side, c);
    if (!busy) button.disabled = Boolean(c?.refused);
    return c;
  };
  watchPosition((p) => {
    last = p;
    show();
  });
  overrideBox?.addEventListener('change', () => void show());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const photo = photoInput?.files?.[0] ?? null;
    if (props.place?.require_clock_photo && !photo) {
      refused({ code: 'SHFT-PHOTO-REQ-ERR', message: '' });
      photoInput?.focus();
      return;
    }
    busy = true;
    button.disabled = true;
    const madeAt = new Date().toISOString();
    say('Finding your location…');
    const pos = await position();
    let lat: number | null = null;
    let lon: number | null = null;
    let verdict: ReturnType<typeof check> = null;
    if (typeof pos === 'string') where.textContent = pos;
    else {
      lat = pos.coords.latitude;
      lon = pos.coords.longitude;
      last = pos;
      verdict = show();
    }
    // Refused by the service's own rule (hard mode, outside, no "I'm here"): nothing is sent or kept.
    if (verdict?.refused) {
      idle();
      refused({ code: 'GEOFENCE-ERR', message: '', details: { distance_m: verdict.distance_m, geofence_radius_m: verdict.radius_m } });
      overrideBox?.focus();
      return;
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
      // The card says it in place of the form (followQueue), until it is sent.
      say('');
      idle();
      await waiting();
      // The tapped button is gone with its form: the keyboard's place moves to the line that replaced it.
      form.closest('[data-shift]')?.querySelector<HTMLElement>(`[data-waiting="${props.side}"]:not([hidden])`)?.focus();
      document.dispatchEvent(new CustomEvent('clock-queue-changed'));
    };
    if (!navigator.onLine) return queue();

    say('Sending…');
    const shift = client.v1.shift_request[':id'];
    let photoUrl: string | undefined;
    if (photo) {
      const up = await send(
        shift.clock_photo.$post(
          { param: { id: encodeURIComponent(props.shiftId) }, query: { side: props.side }, form: { file: photo } },
          write({ idempotencyKey: punch.photoKey }),
        ),
      );
      if (!up.ok && up.status === 0) return queue();
      if (!up.ok) {
        idle();
        refused(up.error);
        photoInput?.focus();
        return;
      }
      photoUrl = up.data.url;
    }
    const body = {
      ...(lat !== null && lon !== null ? { lat, lon } : {}),
      ...(photoUrl ? { photo_url: photoUrl } : {}),
      ...(imHere ? { im_here: true } : {}),
    };
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
    idle();
    refused(r.error);
    if (r.error.code === 'GEOFENCE-ERR' && override) {
      override.hidden = false;
      overrideBox?.focus();
    }
  });
}

/** The longest wait a timer is set for (setTimeout's own limit is about 24.8 days). */
const MAX_WAIT_MS = 86_400_000;

/**
 * Opens the form when the window opens and closes it when it closes, by the phone's clock, with the
 * bounds the server sent: the card's "opens at" line gives way to the button, and after the close
 * the card says to ask the business. A page kept offline does the same.
 */
function followWindow(form: HTMLFormElement, props: Props): () => void {
  const card = form.closest<HTMLElement>('[data-shift]');
  const opensLine = card?.querySelector<HTMLElement>('[data-opens]');
  const closedLine = card?.querySelector<HTMLElement>('[data-closed]');
  const show = () => {
    const now = Date.now();
    const queued = form.dataset.queued === 'true';
    const notYet = props.opensAt !== null && now < Date.parse(props.opensAt);
    const closed = props.closesAt !== null && now > Date.parse(props.closesAt) && !queued;
    // A punch kept on the phone takes the form's place (followQueue) until it is sent.
    form.hidden = notYet || closed || queued;
    if (opensLine) opensLine.hidden = !notYet || queued;
    if (closedLine) closedLine.hidden = !closed;
    return now;
  };
  const update = () => {
    const now = show();
    const next = [props.opensAt, props.closesAt]
      .map((t) => (t === null ? Number.NaN : Date.parse(t) - now))
      .filter((ms) => ms > 0 && ms <= MAX_WAIT_MS);
    // A second past the bound, so the check at the timer falls on the right side of it.
    if (next.length) setTimeout(update, Math.min(...next) + 1000);
  };
  update();
  return () => void show();
}

/**
 * The card's punch kept on the phone: "Clocked in at HH:MM · waiting to send" (the time of the tap on
 * the business's clock) in place of the form while the queue holds it, on this page and on the copy
 * the service worker shows offline. Once it has left the queue (sent by this page or by the service
 * worker's Background Sync) the page is loaded again with the sent notice, so the card says the
 * recorded state. A refused one gives the form back (the queue's line says why). Returns the check.
 */
function followQueue(form: HTMLFormElement, props: Props, windowNow: () => void): () => Promise<void> {
  const box = form.closest<HTMLElement>('[data-shift]')?.querySelector<HTMLElement>(`[data-waiting="${props.side}"]`);
  const time = document.createElement('time');
  if (box) {
    const line = document.createElement('p');
    line.className = 'punched';
    line.append(`${punchedWords(props.side)} `, time, ` · ${WAITING_WORDS}`);
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = WAITING_HINT;
    box.replaceChildren(line, hint);
  }
  // The id of the punch shown waiting: gone from the queue means sent, still there and refused means not.
  let shown: string | null = null;
  const check = async () => {
    const list = await queuedPunches();
    const mine = list.find((p) => p.shiftId === props.shiftId && p.side === props.side && !p.refused);
    const sent = shown !== null && !list.some((p) => p.id === shown);
    shown = mine?.id ?? null;
    if (mine) {
      form.dataset.queued = 'true';
      time.dateTime = mine.deviceTime;
      time.textContent = clockTime(mine.deviceTime, mine.timeZone ?? props.timeZone);
    } else delete form.dataset.queued;
    if (box) box.hidden = !mine;
    windowNow();
    // Sent by the service worker meanwhile: the page, loaded again, says the recorded punch.
    if (sent && !mine) location.assign(`${location.pathname}?notice=sent_${props.side}&shift=${encodeURIComponent(props.shiftId)}`);
  };
  document.addEventListener('clock-queue-changed', () => void check());
  navigator.serviceWorker?.addEventListener('message', (e: MessageEvent) => {
    if ((e.data as { type?: string } | null)?.type === 'clock-punches-sent') void check();
  });
  void check();
  return check;
}

/** A punch the service refused on arrival, in the worker's words, with the card's business when it is on the page. */
function refusedLine(p: QueuedPunch): string {
  const form = document.querySelector<HTMLElement>(`[data-shift="${CSS.escape(p.shiftId)}"] form[data-island="clock"]`);
  let business = 'the business';
  try {
    business = (JSON.parse(form?.dataset.props ?? '{}') as Partial<Props>).businessName ?? business;
  } catch {
    // No card for it on this page: the business unnamed.
  }
  const tz = p.timeZone ?? 'UTC';
  const words = refusalWords(
    { code: p.refusedCode, message: p.refused ?? '', details: p.refusedDetails },
    { business, side: p.side, timeZone: tz, photoRequired: false, script: true, now: Date.now() },
  );
  return `Not recorded: your ${p.side === 'in' ? 'clock-in' : 'clock-out'} made at ${clockTime(p.deviceTime, tz)}. ${words}`;
}

/** How long the page waits to send the queue again when a send found no network though the phone said online. */
const RETRY_MS = 15_000;

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
    for (const p of refused) parts.push(refusedLine(p));
    el.dataset.waiting = String(waiting.length);
    if (parts.length || !line.dataset.sent) line.textContent = parts.join(' ');
  };
  let retry: ReturnType<typeof setTimeout> | undefined;
  const flush = async () => {
    clearTimeout(retry);
    if (!navigator.onLine) return show();
    const out = await sendQueuedPunches();
    await show();
    if (out.sent.length) {
      const p = out.sent[0]!;
      location.assign(`${location.pathname}?notice=sent_${p.side}&shift=${encodeURIComponent(p.shiftId)}`);
      return;
    }
    // Still waiting though the phone says it is online (a network that carries nothing, which sends
    // no `online` event when it comes back): try again while the page is open.
    if (out.waiting) retry = setTimeout(() => void flush(), RETRY_MS);
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
