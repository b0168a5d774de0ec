/**
 * Clock punches made without network, kept on the device (IndexedDB, through idb-keyval) until they
 * can be sent: by the clock page when the network returns (its `online` event, or on its next load)
 * and by the service worker's Background Sync where the browser has it. Each punch carries the
 * Idempotency-Key made with it and the time it was made (device_time); the service records that
 * time within its bounds and marks the punch as made offline (docs/decisions/shift-requests.md
 * "Offline punches"). Both senders take one Web Lock, so a punch is never in flight twice.
 * Plain fetch, IndexedDB and FormData only: this module runs in a page and in the service worker.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

export interface QueuedPunch {
  id: string;
  shiftId: string;
  side: 'in' | 'out';
  /** When it was made on the device (ISO 8601). */
  deviceTime: string;
  /** The business's zone, to say that time on the business's clock (absent in punches queued before it was kept). */
  timeZone?: string;
  idempotencyKey: string;
  photoKey: string;
  /** The photo taken with it, uploaded through clock_photo before the punch. */
  photo: Blob | null;
  photoName: string | null;
  lat: number | null;
  lon: number | null;
  imHere: boolean;
  /** The page's CSRF token when it was made (the API takes the cookie session only with it). */
  csrf: string;
  /** The last refusal, when the service said no (kept for the page to show, no longer sent). */
  refused?: string | undefined;
  /** The refusal's error code and details, for the page to say it in the worker's words (clock.model.ts). */
  refusedCode?: string | undefined;
  refusedDetails?: unknown;
}

/** A refusal as the service answered it: its message, and its code and details when it sent an envelope. */
type Refusal = { message: string; code?: string | undefined; details?: unknown };

export type SendOutcome = { sent: QueuedPunch[]; refused: QueuedPunch[]; waiting: number };

const QUEUE = 'punches';
let store: UseStore | null = null;
const db = () => {
  store ??= createStore('shiftmarket-clock', 'queue');
  return store;
};

export async function queuedPunches(): Promise<QueuedPunch[]> {
  return (await get<QueuedPunch[]>(QUEUE, db())) ?? [];
}

async function save(list: QueuedPunch[]): Promise<void> {
  if (list.length) await set(QUEUE, list, db());
  else await del(QUEUE, db());
}

export async function enqueuePunch(p: QueuedPunch): Promise<void> {
  const list = await queuedPunches();
  // One punch per shift and side: a second tap while offline is the same punch, not another.
  if (list.some((q) => q.shiftId === p.shiftId && q.side === p.side && !q.refused)) return;
  await save([...list, p]);
}

export async function forgetPunch(id: string): Promise<void> {
  await save((await queuedPunches()).filter((q) => q.id !== id));
}

/** The errors the service answers with; a network failure is `null` (try again later). */
async function post(path: string, p: QueuedPunch, key: string, body: BodyInit, json: boolean) {
  const headers: Record<string, string> = { 'X-CSRF-Token': p.csrf, Accept: 'application/json', 'Idempotency-Key': key };
  if (json) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers, body, credentials: 'same-origin' });
  } catch {
    return null;
  }
  const data = (await res.json().catch(() => null)) as {
    url?: string;
    error?: { code: string; message: string; details?: unknown };
  } | null;
  return { status: res.status, data };
}

/** Whether an answer means "try again later" (no network, overload, a twin in flight) rather than a refusal. */
const transient = (status: number) => status === 0 || status === 408 || status === 409 || status === 429 || status >= 500;

const refusal = (data: { error?: { code: string; message: string; details?: unknown } } | null, fallback: string): Refusal =>
  data?.error ? { message: data.error.message, code: data.error.code, details: data.error.details } : { message: fallback };

async function sendOne(p: QueuedPunch): Promise<'sent' | 'wait' | Refusal> {
  let photoUrl: string | undefined;
  if (p.photo) {
    const form = new FormData();
    form.append('file', p.photo, p.photoName ?? 'photo.jpg');
    const up = await post(`/v1/shift_request/${encodeURIComponent(p.shiftId)}/clock_photo?side=${p.side}`, p, p.photoKey, form, false);
    if (!up || transient(up.status)) return 'wait';
    if (up.status >= 400) return refusal(up.data, `The photo was refused (${up.status}).`);
    photoUrl = up.data?.url;
  }
  const body = {
    device_time: p.deviceTime,
    ...(p.lat !== null && p.lon !== null ? { lat: p.lat, lon: p.lon } : {}),
    ...(photoUrl ? { photo_url: photoUrl } : {}),
    ...(p.imHere ? { im_here: true } : {}),
  };
  const r = await post(
    `/v1/shift_request/${encodeURIComponent(p.shiftId)}/clock_${p.side}`,
    p,
    p.idempotencyKey,
    JSON.stringify(body),
    true,
  );
  if (!r) return 'wait';
  if (r.status < 300) return 'sent';
  // A conflict that is the shift's state (not a twin in flight) is a refusal to show, not to retry.
  if (r.status === 409 && r.data?.error?.code !== 'IDEMPOTENCY-IN-PROGRESS-ERR' && r.data?.error?.code) return refusal(r.data, '');
  if (transient(r.status)) return 'wait';
  return refusal(r.data, `The service answered ${r.status}.`);
}

async function sendAllUnlocked(): Promise<SendOutcome> {
  const out: SendOutcome = { sent: [], refused: [], waiting: 0 };
  for (const p of await queuedPunches()) {
    if (p.refused) continue;
    const result = await sendOne(p);
    if (result === 'sent') {
      await forgetPunch(p.id);
      out.sent.push(p);
    } else if (result === 'wait') {
      out.waiting++;
    } else {
      const list = await queuedPunches();
      const kept = { refused: result.message, refusedCode: result.code, refusedDetails: result.details };
      await save(list.map((q) => (q.id === p.id ? { ...q, photo: null, ...kept } : q)));
      out.refused.push({ ...p, ...kept });
    }
  }
  return out;
}

/** Sends every queued punch in order, one sender at a time (a Web Lock where the browser has them). */
export async function sendQueuedPunches(): Promise<SendOutcome> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return sendAllUnlocked();
  return (await locks.request('shiftmarket-clock-queue', sendAllUnlocked)) as SendOutcome;
}

export const SYNC_TAG = 'shiftmarket-clock-punches';
