import { ASSISTANT_NAME, inWebWords } from '../help/help-wording.model';
import { client, newIdempotencyKey, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';

/**
 * An open thread of the inbox (/inbox/{id}): new messages appear while the page is open, and the
 * reply box sends without leaving the page.
 *
 * Live: a WebSocket to /inbox/{id}/live (the thread's Durable Object). On every (re)connection the
 * page sends `{since: <last seq shown>}` and is answered what it missed; then each new message comes
 * as it is stored. A lost connection is retried with growing pauses, except when the thread closed it
 * because the session ended (4401) or access to the thread ended (4403): the page then stops following
 * the thread (a reload shows where the person stands). A catch-up refused for the session's budget
 * (`{type: 'error', code: 'RATE-LIMIT-ERR', retry_after}`) is asked again after `retry_after` seconds.
 * Messages from the other side are marked read while the page is visible
 * (POST /v1/messaging/threads/{id}/read).
 *
 * Sending: POST /v1/messaging/messages with an Idempotency-Key. A send that fails (offline, a
 * refusal) keeps the text in the box and offers Retry, which sends again with the same key, so a
 * message that did reach the service before the answer was lost is stored once. Editing the text
 * after a failure makes it a new message (a new key). Without script the form posts to the page.
 */

interface Props {
  threadId: string;
  /** The caller's side (`kind:id`): their own messages are marked as theirs. */
  me: string | null;
  /** The side named in the API calls when the person takes part on both sides. */
  as: { kind: 'shifter' | 'business'; id: string } | null;
  names: Record<string, string | null>;
  lastSeq: number;
  timeZone: string;
}

interface Message {
  seq: number;
  id: string;
  sender_kind: string;
  sender_id: string;
  body: string;
  automated: boolean;
  created_at: number;
}

const PING_MS = 30_000;
const RETRY_MAX_MS = 30_000;
/** Close codes after which reconnecting cannot help: the session ended, access to the thread ended. */
const ENDED = new Set([4401, 4403]);

function mount(root: HTMLElement, props: Props) {
  const list = root.querySelector<HTMLOListElement>('.thread-messages');
  const form = root.querySelector<HTMLFormElement>('form.thread-compose');
  const box = form?.querySelector<HTMLTextAreaElement>('textarea[name=body]') ?? null;
  const button = form?.querySelector<HTMLButtonElement>('button[type=submit]') ?? null;
  const status = root.querySelector<HTMLElement>('.thread-send-status');
  const empty = root.querySelector<HTMLElement>('.thread-empty');
  if (!list) return;
  let lastSeq = props.lastSeq;
  const shown = new Set<number>(Array.from(list.querySelectorAll<HTMLElement>('[data-seq]'), (li) => Number(li.dataset.seq)));

  const when = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: props.timeZone,
  });

  // ---- Marking read while the page is visible ----
  let readTimer: number | undefined;
  let readUpTo = 0;
  const markRead = () => {
    if (document.visibilityState !== 'visible' || readUpTo === 0) return;
    const seq = readUpTo;
    readUpTo = 0;
    const json = { seq, ...(props.as ? { as: props.as } : {}) };
    void send(client.v1.messaging.threads[':id'].read.$post({ param: { id: props.threadId }, json }, write()));
  };
  document.addEventListener('visibilitychange', markRead);

  function show(m: Message) {
    if (shown.has(m.seq) || !list) return;
    shown.add(m.seq);
    lastSeq = Math.max(lastSeq, m.seq);
    const key = `${m.sender_kind}:${m.sender_id}`;
    const mine = key === props.me;
    const li = document.createElement('li');
    li.className = mine ? 'chat-message chat-user' : 'chat-message';
    li.dataset.seq = String(m.seq);
    const who = document.createElement('p');
    who.className = 'chat-who';
    who.textContent = mine
      ? 'You'
      : m.sender_kind === 'assistant'
        ? ASSISTANT_NAME
        : (props.names[key] ?? (m.sender_kind === 'user' ? 'Support team' : 'Someone'));
    const text = document.createElement('p');
    text.className = 'chat-text';
    text.textContent = m.sender_kind === 'assistant' ? inWebWords(m.body) : m.body;
    const time = document.createElement('time');
    time.className = 'chat-time';
    time.dateTime = new Date(m.created_at).toISOString();
    time.textContent = when.format(new Date(m.created_at));
    li.append(who, text, time);
    // Keep seq order even when a catch-up answer and a live message cross.
    const next = Array.from(list.children).find((c) => Number((c as HTMLElement).dataset.seq) > m.seq);
    list.insertBefore(li, next ?? null);
    empty?.remove();
    if (!mine) {
      readUpTo = Math.max(readUpTo, m.seq);
      window.clearTimeout(readTimer);
      readTimer = window.setTimeout(markRead, 500);
    }
  }

  // ---- Live ----
  let socket: WebSocket | null = null;
  let ping: number | undefined;
  let pause = 1000;
  const connect = () => {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/inbox/${encodeURIComponent(props.threadId)}/live`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      pause = 1000;
      root.dataset.live = 'open';
      ws.send(JSON.stringify({ since: lastSeq }));
      ping = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('ping'), PING_MS);
    });
    ws.addEventListener('message', (e) => {
      if (typeof e.data !== 'string' || e.data === 'pong') return;
      let event: { type?: string; message?: Message; messages?: Message[]; has_more?: boolean; code?: string; retry_after?: number };
      try {
        event = JSON.parse(e.data);
      } catch {
        return;
      }
      if (event.type === 'message' && event.message) show(event.message);
      if (event.type === 'messages' && event.messages) {
        for (const m of event.messages) show(m);
        if (event.has_more) ws.send(JSON.stringify({ since: lastSeq }));
      }
      if (event.type === 'error' && event.code === 'RATE-LIMIT-ERR') {
        window.setTimeout(
          () => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ since: lastSeq })),
          Math.max(1, event.retry_after ?? 1) * 1000,
        );
      }
    });
    ws.addEventListener('close', (e) => {
      window.clearInterval(ping);
      if (socket !== ws) return;
      if (ENDED.has(e.code)) {
        socket = null;
        root.dataset.live = 'ended';
        return;
      }
      root.dataset.live = 'closed';
      window.setTimeout(connect, pause);
      pause = Math.min(RETRY_MAX_MS, pause * 2);
    });
  };
  connect();
  // Back online: reconnect now rather than after the pause.
  window.addEventListener('online', () => {
    if (socket && socket.readyState !== WebSocket.OPEN) socket.close();
  });

  // ---- Sending ----
  if (!form || !box || !button || !status) return;
  let pending: { key: string; body: string } | null = null;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'button button-secondary';
  retry.textContent = 'Retry';
  retry.hidden = true;
  status.after(retry);

  const say = (text: string, failed: boolean) => {
    status.textContent = text;
    status.classList.toggle('field-error', failed);
    retry.hidden = !failed;
  };

  async function sendMessage(body: string) {
    pending = pending?.body === body ? pending : { key: newIdempotencyKey(), body };
    button!.disabled = true;
    retry.disabled = true;
    say('Sending…', false);
    const res = await send(
      client.v1.messaging.messages.$post(
        { json: { conversation_id: props.threadId, body, ...(props.as ? { as: props.as } : {}) } },
        write({ idempotencyKey: pending.key }),
      ),
    );
    button!.disabled = false;
    retry.disabled = false;
    if (!res.ok) {
      say(`Not sent: ${res.error.message}`, true);
      box!.setAttribute('aria-invalid', 'true');
      return;
    }
    pending = null;
    box!.removeAttribute('aria-invalid');
    const m = res.data.message;
    show({
      seq: m.seq,
      id: m.id,
      sender_kind: m.sender.kind,
      sender_id: m.sender.id,
      body: m.body,
      automated: m.automated,
      created_at: Date.parse(m.created_at),
    });
    if (box!.value.trim() === body) box!.value = '';
    say('Sent.', false);
    box!.focus();
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const body = box.value.trim();
    if (!body) {
      say('Write a message first.', false);
      box.focus();
      return;
    }
    void sendMessage(body);
  });
  retry.addEventListener('click', () => {
    const body = box.value.trim() || pending?.body;
    if (body) void sendMessage(body);
  });
}

eachIsland<Props>('thread', mount);
