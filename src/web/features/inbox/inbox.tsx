import { ASSISTANT_NAME, inWebWords } from '../help/help-wording.model';
import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import {
  changeThread,
  countUnreadThreads,
  getThread,
  INBOX_TABS,
  type InboxTab,
  joinSupportThread,
  listInbox,
  listMessages,
  MESSAGE_BODY_MAX,
  type MessageView,
  openLiveThread,
  type PartyRef,
  sendMessage,
  type ThreadAction,
  type ThreadView,
  type UnreadThreadCounts,
} from '@/services/messaging';
import { defaultTimezone } from '@/services/notifications';
import { CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { dateTimeIn } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { requestOrigin } from '@/http/origin';
import { appOrigin } from '@/web/urls';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';

/*
 * The inbox (spec 2.11, 4.7): the person's threads in four tabs, and one thread that updates live
 * while open. Every read and write goes through the messaging services as the API's do, with the
 * signed-in person as the actor; every form works without script (the `thread` island adds the live
 * view and sending in place).
 */

const TAB_LABELS: Record<InboxTab, string> = { all: 'All', pinned: 'Pinned', requests: 'Requests', archived: 'Archived' };
const PAGE_SIZE = 20;
const MESSAGES_SHOWN = 50;

const inboxStyles = () => {
  const css = WEB_ENTRIES.islands.thread.css;
  return css ? [css] : [];
};

/** Where the person's times are written: their notification zone's default (shifter zone, else their business's). */
const zoneOf = (c: Context<AppEnv>) => defaultTimezone(serviceCtx(c), c.get('webUser')!.userId);

/** The side a page acts as, from `?as_kind=&as_id=` (needed only by a person on both sides of a thread). */
function asOf(c: Context<AppEnv>): PartyRef | undefined {
  const kind = c.req.query('as_kind');
  const id = c.req.query('as_id');
  return (kind === 'shifter' || kind === 'business') && id ? { kind, id } : undefined;
}

const asQuery = (as: PartyRef | null | undefined) =>
  as && (as.kind === 'shifter' || as.kind === 'business') ? `?${new URLSearchParams({ as_kind: as.kind, as_id: as.id })}` : '';

export const threadHref = (t: Pick<ThreadView, 'id' | 'as'>) =>
  `/inbox/${encodeURIComponent(t.id)}${t.as ? asQuery({ kind: t.as.kind as PartyRef['kind'], id: t.as.id }) : ''}`;

/** What a thread is called in a list and its heading: the other party, or a support thread's subject. */
export function threadTitle(t: ThreadView): string {
  if (t.kind === 'direct') return t.counterparty?.name ?? 'Unknown party';
  const owner = t.participants.find((p) => p.kind === 'user' && p.id === t.owner_user_id);
  const subject = t.subject ?? 'Help conversation';
  return t.as ? subject : `${owner?.name ?? 'A person'}: ${subject}`;
}

/** The kind of a thread in words, for its badge (direct threads need none). */
export function KindBadge({ t }: { t: Pick<ThreadView, 'kind'> }) {
  if (t.kind === 'support') return <span class="badge badge-info">Support</span>;
  if (t.kind === 'support_ai') return <span class="badge">Help assistant</span>;
  return null;
}

/** The person's own name for the side a thread reaches them on, when they have more than one side. */
function sideName(base: DashboardBase, t: ThreadView): string | null {
  const sides = base.businesses.length + (base.shifterId ? 1 : 0);
  if (sides < 2 || !t.as) return null;
  if (t.as.kind === 'business') return base.businesses.find((b) => b.id === t.as!.id)?.name ?? null;
  if (t.as.kind === 'shifter') return 'your shifter profile';
  return null;
}

function InboxTabs({ tab, counts }: { tab: InboxTab; counts: UnreadThreadCounts }) {
  const unread: Partial<Record<InboxTab, number>> = { all: counts.all, pinned: counts.pinned, requests: counts.requests };
  return (
    <nav class="inbox-tabs" aria-label="Inbox tabs">
      <ul>
        {INBOX_TABS.map((t) => (
          <li>
            <a href={t === 'all' ? '/inbox' : `/inbox?tab=${t}`} aria-current={t === tab ? 'page' : undefined}>
              {TAB_LABELS[t]}
              {unread[t] ? (
                <span class="count-badge">
                  {unread[t]}
                  <span class="visually-hidden"> unread</span>
                </span>
              ) : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const EMPTY: Record<InboxTab, string> = {
  all: 'No conversations yet. Messages from the businesses and shifters you are connected with appear here.',
  pinned: 'Nothing pinned. Pin a conversation from its page to keep it here.',
  requests: 'No message requests. A first message from someone you have not written with waits here until you accept it.',
  archived: 'Nothing archived.',
};

/** GET /inbox: one tab of the person's threads, latest message first. */
export async function renderInbox(c: Context<AppEnv>): Promise<Response> {
  const asked = c.req.query('tab');
  const tab: InboxTab = (INBOX_TABS as readonly string[]).includes(asked ?? '') ? (asked as InboxTab) : 'all';
  const cursor = c.req.query('cursor') || undefined;
  const ctx = serviceCtx(c);
  const [base, page, counts, zone] = await Promise.all([
    dashboardBase(c),
    listInbox(ctx, { tab, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }).catch((err) => {
      // A cursor from an old or edited address: start the tab from its top.
      if (err instanceof AppError && err.code === 'VALIDATION-ERR') return null;
      throw err;
    }),
    countUnreadThreads(ctx),
    zoneOf(c),
  ]);
  if (!page) return c.redirect(tab === 'all' ? '/inbox' : `/inbox?tab=${tab}`, 303);
  const notice = noticeOf(c, { accepted: 'Accepted: the conversation is in All now.', archived: 'Archived.' });
  return renderPage(
    c,
    <AppShell base={base} title="Inbox" side="shared" current="/inbox" notice={notice} styles={inboxStyles()}>
      <InboxTabs tab={tab} counts={counts} />
      {page.data.length === 0 ? (
        <p class="empty">{cursor ? 'No more conversations.' : EMPTY[tab]}</p>
      ) : (
        <ul class="thread-list" aria-label={`${TAB_LABELS[tab]} conversations`}>
          {page.data.map((t) => {
            const side = sideName(base, t);
            return (
              <li class={t.unread_count ? 'thread-unread' : undefined}>
                <a class="thread-row" href={threadHref(t)}>
                  <span class="thread-name">{threadTitle(t)}</span>
                  <span class="thread-meta">
                    <KindBadge t={t} />
                    {t.pinned && tab !== 'pinned' ? <span class="badge">Pinned</span> : null}
                    {t.unread_count ? <span class="badge badge-info">{t.unread_count} unread</span> : null}
                    {t.last_message ? <time datetime={t.last_message.at}>{dateTimeIn(t.last_message.at, zone)}</time> : null}
                  </span>
                  <span class="thread-preview">
                    {side ? `To ${side} · ` : ''}
                    {t.last_message?.preview ?? ''}
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {page.next_cursor ? (
        <p>
          <a href={`/inbox?${new URLSearchParams({ tab, cursor: page.next_cursor })}`}>Older conversations</a>
        </p>
      ) : null}
    </AppShell>,
  );
}

// ---- One thread ----

const THREAD_NOTICES = {
  accepted: 'Accepted. You can write freely now, and the conversation is in All.',
  pinned: 'Pinned.',
  unpinned: 'Unpinned.',
  archived: 'Archived. A new message brings the conversation back.',
  unarchived: 'Back in your inbox.',
  blocked: 'Blocked. Neither side can write here until you unblock.',
  unblocked: 'Unblocked.',
  joined: 'You joined the conversation. The person is told when you answer.',
  sent: 'Sent.',
};

interface ThreadPageProps {
  base: DashboardBase;
  view: ThreadView;
  messages: MessageView[];
  olderCursor: string | null;
  zone: string;
  notice?: string | undefined;
  error?: string | undefined;
  /** The reply box: what was typed and the service's refusal, when a send was refused. */
  draft?: { body: string; error: string } | undefined;
}

/** The side a thread's form acts as (a person on both sides of it), posted with the form. */
function AsFields({ as }: { as: { kind: string; id: string } | null }) {
  return as ? (
    <>
      <input type="hidden" name="as_kind" value={as.kind} />
      <input type="hidden" name="as_id" value={as.id} />
    </>
  ) : null;
}

interface ActionButtonProps {
  csrf: string;
  view: ThreadView;
  action: string;
  label: string;
  variant?: 'secondary' | 'danger' | 'primary';
}

function ActionButton({ csrf, view, action, label, variant = 'secondary' }: ActionButtonProps) {
  const as = view.as && (view.as.kind === 'shifter' || view.as.kind === 'business') ? view.as : null;
  return (
    <form method="post" action={`/inbox/${encodeURIComponent(view.id)}/${action}`} class="inline-form">
      <CsrfField token={csrf} />
      <IdempotencyField />
      <AsFields as={as} />
      <SubmitButton variant={variant}>{label}</SubmitButton>
    </form>
  );
}

function ThreadActions({ csrf, view }: { csrf: string; view: ThreadView }) {
  if (!view.as) return null;
  const direct = view.kind === 'direct';
  return (
    <div class="actions">
      {!view.accepted && direct ? <ActionButton csrf={csrf} view={view} action="accept" label="Accept" variant="primary" /> : null}
      <ActionButton csrf={csrf} view={view} action={view.pinned ? 'unpin' : 'pin'} label={view.pinned ? 'Unpin' : 'Pin'} />
      <ActionButton
        csrf={csrf}
        view={view}
        action={view.archived ? 'unarchive' : 'archive'}
        label={view.archived ? 'Move to inbox' : 'Archive'}
      />
      {direct ? (
        <ActionButton
          csrf={csrf}
          view={view}
          action={view.blocked_by_me ? 'unblock' : 'block'}
          label={view.blocked_by_me ? 'Unblock' : 'Block'}
          variant={view.blocked_by_me ? 'secondary' : 'danger'}
        />
      ) : null}
    </div>
  );
}

function MessageItem({ m, me, zone }: { m: MessageView; me: string | null; zone: string }) {
  const mine = `${m.sender.kind}:${m.sender.id}` === me;
  return (
    <li class={mine ? 'chat-message chat-user' : 'chat-message'} data-seq={String(m.seq)}>
      <p class="chat-who">
        {mine
          ? 'You'
          : m.sender.kind === 'assistant'
            ? ASSISTANT_NAME
            : (m.sender.name ?? (m.sender.kind === 'user' ? 'Support team' : 'Someone'))}
      </p>
      <p class="chat-text">{m.sender.kind === 'assistant' ? inWebWords(m.body) : m.body}</p>
      <time class="chat-time" datetime={m.created_at}>
        {dateTimeIn(m.created_at, zone)}
      </time>
    </li>
  );
}

/** Why the person cannot write here, or null when they can. */
function cannotWrite(view: ThreadView): string | null {
  if (!view.as) return null;
  if (view.kind === 'support_ai')
    return 'The help assistant answers this conversation. Ask from the help center, or escalate it there to write to the support team.';
  if (view.blocked_by_me) return 'You blocked this conversation. Unblock it to write again.';
  if (view.blocked_by_other) return 'The other party has blocked messages in this conversation.';
  return null;
}

function ThreadPage({ base, view, messages, olderCursor, zone, notice, error, draft }: ThreadPageProps) {
  const me = view.as ? `${view.as.kind}:${view.as.id}` : null;
  const names: Record<string, string | null> = Object.fromEntries(view.participants.map((p) => [`${p.kind}:${p.id}`, p.name]));
  const as = view.as && (view.as.kind === 'shifter' || view.as.kind === 'business') ? { kind: view.as.kind, id: view.as.id } : null;
  const lastSeq = messages.at(-1)?.seq ?? 0;
  const island = WEB_ENTRIES.islands.thread;
  const blocked = cannotWrite(view);
  const waiting = view.kind === 'direct' && view.awaiting_acceptance && messages.some((m) => `${m.sender.kind}:${m.sender.id}` === me);
  return (
    <AppShell
      base={base}
      title={threadTitle(view)}
      side="shared"
      current="/inbox"
      notice={notice}
      error={error}
      scripts={[island.js]}
      styles={inboxStyles()}
    >
      <div class="thread-head">
        <a href={view.tab === 'requests' ? '/inbox?tab=requests' : view.archived ? '/inbox?tab=archived' : '/inbox'}>Back to the inbox</a>
        <KindBadge t={view} />
        {view.tab === 'requests' ? <span class="badge badge-warn">Message request</span> : null}
      </div>
      <ThreadActions csrf={base.csrfToken} view={view} />
      {!view.as ? (
        <div class="card">
          <p>You are reading this support conversation as an admin. Join it to answer the person.</p>
          <ActionButton csrf={base.csrfToken} view={view} action="join" label="Join the conversation" variant="primary" />
        </div>
      ) : null}
      {view.tab === 'requests' ? (
        <p class="notice">This is a message request. Accept it to reply freely; until then the sender can send only this one message.</p>
      ) : null}
      <section
        class="thread"
        aria-labelledby="thread-messages-heading"
        data-island="thread"
        data-props={JSON.stringify({ threadId: view.id, me, as, names, lastSeq, timeZone: zone })}
      >
        <h2 id="thread-messages-heading" class="visually-hidden">
          Messages
        </h2>
        {olderCursor ? (
          <p>
            <a
              href={`/inbox/${encodeURIComponent(view.id)}?${new URLSearchParams({ before: olderCursor, ...(as ? { as_kind: as.kind, as_id: as.id } : {}) })}`}
            >
              Earlier messages
            </a>
          </p>
        ) : null}
        {messages.length === 0 ? <p class="empty thread-empty">No messages yet.</p> : null}
        <ol class="chat thread-messages" aria-live="polite" aria-relevant="additions">
          {messages.map((m) => (
            <MessageItem m={m} me={me} zone={zone} />
          ))}
        </ol>
        {blocked && view.as ? <p class="notice">{blocked}</p> : null}
        {view.as && (!blocked || draft) ? (
          <form method="post" action={`/inbox/${encodeURIComponent(view.id)}/send`} class="thread-compose">
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <AsFields as={as} />
            <label for="field-body">{view.tab === 'requests' ? 'Reply (replying accepts the request)' : 'Your message'}</label>
            <textarea
              id="field-body"
              name="body"
              rows={3}
              maxlength={MESSAGE_BODY_MAX}
              required
              aria-describedby={draft ? 'field-body-error' : waiting ? 'field-body-hint' : undefined}
              aria-invalid={draft ? 'true' : undefined}
            >
              {draft?.body ?? ''}
            </textarea>
            {waiting && !draft ? (
              <p class="hint" id="field-body-hint">
                They have not accepted your first message yet: you can write again once they accept or reply.
              </p>
            ) : null}
            {draft ? (
              <p class="field-error" id="field-body-error">
                {draft.error}
              </p>
            ) : null}
            <div class="actions">
              <SubmitButton>Send</SubmitButton>
            </div>
            <p class="thread-send-status" role="status" />
          </form>
        ) : null}
      </section>
    </AppShell>
  );
}

const isNotFound = (err: unknown) => err instanceof AppError && (err.code === 'MSG-NOT-FND-ERR' || err.code === 'MSG-NOT-PARTICIPANT');

const threadGone = (c: Context<AppEnv>) =>
  renderError(c, 404, 'Conversation not found', 'There is no such conversation in your inbox. It may have been removed.');

async function loadThreadPage(c: Context<AppEnv>, id: string, as: PartyRef | undefined) {
  const ctx = serviceCtx(c);
  const before = c.req.query('before') || undefined;
  const view = await getThread(ctx, id, as ? { as_kind: as.kind, as_id: as.id } : {});
  // The latest messages, shown oldest first; "Earlier messages" goes back from the first shown.
  const page = await listMessages(ctx, id, before, { order: 'desc', limit: MESSAGES_SHOWN }).catch((err) => {
    if (err instanceof AppError && err.code === 'VALIDATION-ERR')
      return listMessages(ctx, id, null, { order: 'desc', limit: MESSAGES_SHOWN });
    throw err;
  });
  return { view, messages: page.data.slice().reverse(), olderCursor: page.next_cursor };
}

/** GET /inbox/{id}: the thread; its unread messages are marked read for the person's side. */
export async function renderThread(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id')!;
  const as = asOf(c);
  const base = await dashboardBase(c);
  let data: Awaited<ReturnType<typeof loadThreadPage>>;
  try {
    data = await loadThreadPage(c, id, as);
  } catch (err) {
    if (isNotFound(err)) return threadGone(c);
    throw err;
  }
  const last = data.messages.at(-1)?.seq ?? 0;
  if (data.view.as && data.view.last_read_seq < last && !c.req.query('before')) {
    // Opening the thread reads it: the same idempotent read marker as the API's (never moves back).
    const sideAs = data.view.as.kind === 'shifter' || data.view.as.kind === 'business' ? (data.view.as as PartyRef) : undefined;
    data.view = await changeThread(serviceCtx(c), id, 'read', { seq: last, ...(sideAs ? { as: sideAs } : {}) });
    base.counts = { ...base.counts, messages: Math.max(0, (base.counts.messages ?? 1) - 1) };
  }
  const zone = await zoneOf(c);
  return renderPage(c, <ThreadPage base={base} {...data} zone={zone} notice={noticeOf(c, THREAD_NOTICES)} />);
}

async function postedAs(c: Context<AppEnv>): Promise<PartyRef | undefined> {
  const field = await formFields(c);
  const kind = field('as_kind', 20);
  const id = field('as_id', 100);
  return (kind === 'shifter' || kind === 'business') && id ? { kind, id } : undefined;
}

/** POST /inbox/{id}/send: the reply box without script. A refusal keeps the text, with the reason beside it. */
export async function postSend(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id')!;
  const field = await formFields(c);
  const body = field('body', MESSAGE_BODY_MAX + 1);
  const as = await postedAs(c);
  try {
    await sendMessage(serviceCtx(c), { conversation_id: id, body, ...(as ? { as } : {}) });
  } catch (err) {
    if (isNotFound(err)) return threadGone(c);
    if (!(err instanceof AppError)) throw err;
    const base = await dashboardBase(c);
    const data = await loadThreadPage(c, id, as);
    return renderPage(
      c,
      <ThreadPage base={base} {...data} zone={await zoneOf(c)} draft={{ body, error: err.message }} />,
      err.status as 400,
    );
  }
  return c.redirect(`/inbox/${encodeURIComponent(id)}${asQuery(as)}`, 303);
}

const ACTIONS: Record<string, { action: ThreadAction | 'join'; notice: keyof typeof THREAD_NOTICES }> = {
  accept: { action: 'accept', notice: 'accepted' },
  pin: { action: 'pin', notice: 'pinned' },
  unpin: { action: 'unpin', notice: 'unpinned' },
  archive: { action: 'archive', notice: 'archived' },
  unarchive: { action: 'unarchive', notice: 'unarchived' },
  block: { action: 'block', notice: 'blocked' },
  unblock: { action: 'unblock', notice: 'unblocked' },
  join: { action: 'join', notice: 'joined' },
};

/** POST /inbox/{id}/{accept|pin|unpin|archive|unarchive|block|unblock|join}: one change of the person's side. */
export async function postThreadAction(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param('id')!;
  const step = ACTIONS[c.req.param('action') ?? ''];
  if (!step) return renderError(c, 404, 'Page not found', 'There is no such page.');
  const as = await postedAs(c);
  const ctx = serviceCtx(c);
  try {
    if (step.action === 'join') await joinSupportThread(ctx, id);
    else await changeThread(ctx, id, step.action, as ? { as } : {});
  } catch (err) {
    if (isNotFound(err)) return threadGone(c);
    if (!(err instanceof AppError)) throw err;
    const base = await dashboardBase(c);
    const data = await loadThreadPage(c, id, as);
    return renderPage(c, <ThreadPage base={base} {...data} zone={await zoneOf(c)} error={err.message} />, err.status as 400);
  }
  const params = new URLSearchParams({ notice: step.notice, ...(as ? { as_kind: as.kind, as_id: as.id } : {}) });
  // Archiving leaves the thread: back to the inbox, where it no longer is.
  if (step.action === 'archive') return c.redirect('/inbox?notice=archived', 303);
  return c.redirect(`/inbox/${encodeURIComponent(id)}?${params}`, 303);
}

/**
 * GET /inbox/{id}/live: the WebSocket of an open thread (the `thread` island), for a reader of it.
 * Only the application's own pages may open it: a browser sends the page's Origin with the upgrade,
 * and the session cookie alone must not let another site listen in.
 */
export async function liveThread(c: Context<AppEnv>): Promise<Response> {
  const origin = c.req.header('Origin');
  if (!origin || (origin !== requestOrigin(c) && origin !== appOrigin(c))) return c.text('Forbidden', 403);
  if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') return c.text('Expected a WebSocket', 426);
  try {
    return await openLiveThread(serviceCtx(c), c.req.param('id')!, c.req.raw);
  } catch (err) {
    if (isNotFound(err)) return c.text('Not found', 404);
    throw err;
  }
}
