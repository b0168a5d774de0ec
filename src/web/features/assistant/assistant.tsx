import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import {
  type AssistantAction,
  type AssistantMessageView,
  getAssistantChat,
  sendAssistantMessage,
  sendAssistantMessageInput,
} from '@/services/assistant';
import { sendConnection } from '@/services/connections';
import { Card, CsrfField, IdempotencyField, Notice, SubmitButton, TextareaField } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';

/**
 * The business assistant as a page of the app: the 50 most recent messages and a box to send, with
 * its one-click actions working. Plain forms: sending waits for the answer (the assistant answers in
 * one request) and shows it, so no script is needed. `invite_shifter` asks for confirmation on its
 * own page before it sends the invitation; `open_shift_form` opens the prefilled form; `open_url`
 * follows an in-app path here and opens a full URL in a new tab.
 */

const NOTICES = { invited: 'The invitation was sent.' } as const;

function ActionLink({ base, action }: { base: DashboardBase; action: AssistantAction }) {
  switch (action.type) {
    case 'invite_shifter':
      return (
        <a class="button button-secondary" href={dashboardHref(base, '/dashboard/assistant/invite', { shifter_id: action.shifter_id })}>
          {action.label}
        </a>
      );
    case 'open_shift_form':
      return (
        <a
          class="button button-secondary"
          href={dashboardHref(base, '/dashboard/shifts/new', { date: action.date, in: action.in, out: action.out })}
        >
          {action.label}
        </a>
      );
    case 'open_url':
      return action.target === 'in_app' ? (
        <a class="button button-secondary" href={action.url}>
          {action.label}
        </a>
      ) : (
        <a class="button button-secondary" href={action.url} target="_blank" rel="noopener noreferrer">
          {action.label} <span class="visually-hidden">(opens in a new tab)</span>
        </a>
      );
  }
}

function Message({ base, m }: { base: DashboardBase; m: AssistantMessageView }) {
  return (
    <li class={`chat-message chat-${m.role}`}>
      <p class="chat-who">{m.role === 'user' ? 'You' : 'Assistant'}</p>
      <p class="chat-text">{m.content}</p>
      {m.actions.length ? (
        <div class="actions">
          {m.actions.map((a) => (
            <ActionLink base={base} action={a} />
          ))}
        </div>
      ) : null}
    </li>
  );
}

interface ViewProps {
  base: DashboardBase;
  messages: AssistantMessageView[];
  draft?: string;
  error?: string | undefined;
  notice?: string | undefined;
  fieldError?: string | undefined;
}

function AssistantView({ base, messages, draft = '', error, notice, fieldError }: ViewProps) {
  return (
    <AppShell base={base} title="Assistant" current="/dashboard/assistant" error={error} notice={notice}>
      <p class="aside">Ask about your shifts, crew and costs. It reads what you may read and proposes actions; it never acts alone.</p>
      <Card title="Conversation">
        {messages.length ? (
          <ol class="chat" aria-label="Messages, oldest first">
            {messages.map((m) => (
              <Message base={base} m={m} />
            ))}
          </ol>
        ) : (
          <p class="empty">No messages yet. Ask something, for example: “Who can cover Friday night?”</p>
        )}
        <form method="post" action={dashboardHref(base, '/dashboard/assistant')} id="ask">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <TextareaField label="Your message" name="message" value={draft} maxLength={2000} error={fieldError} rows={3} />
          <SubmitButton>Send</SubmitButton>
        </form>
      </Card>
    </AppShell>
  );
}

export async function renderAssistant(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const chat = await getAssistantChat(serviceCtx(c), base.business.id);
  const key = c.req.query('notice');
  const notice = key && Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : undefined;
  return renderPage(c, <AssistantView base={base} messages={chat.data} notice={notice} />);
}

export async function postAssistant(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const f = await formFields(c);
  const message = f('message', 2100);
  const ctx = serviceCtx(c);
  const parsed = sendAssistantMessageInput.safeParse({ message });
  if (!parsed.success) {
    const chat = await getAssistantChat(ctx, b.id);
    return renderPage(
      c,
      <AssistantView
        base={base}
        messages={chat.data}
        draft={message}
        error="Check your message."
        fieldError="Write 1 to 2000 characters."
      />,
      400,
    );
  }
  try {
    await sendAssistantMessage(ctx, b.id, parsed.data);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const chat = await getAssistantChat(ctx, b.id);
    const onField = err.code === 'VALIDATION-ERR';
    return renderPage(
      c,
      <AssistantView
        base={base}
        messages={chat.data}
        draft={message}
        error={onField ? 'Check your message.' : err.message}
        fieldError={onField ? err.message : undefined}
      />,
      err.status as ContentfulStatusCode,
    );
  }
  return c.redirect(`${dashboardHref(base, '/dashboard/assistant')}#ask`, 303);
}

/** The confirmation an invite_shifter action asks for: who, to which business, and what happens. */
export async function renderInvite(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const shifterId = (c.req.query('shifter_id') ?? '').slice(0, 100);
  const chat = await getAssistantChat(serviceCtx(c), b.id);
  // The name comes from the action the assistant proposed, not from the address.
  const proposed = chat.data
    .flatMap((m) => m.actions)
    .find((a): a is Extract<AssistantAction, { type: 'invite_shifter' }> => a.type === 'invite_shifter' && a.shifter_id === shifterId);
  if (!proposed) {
    return renderPage(
      c,
      <AppShell base={base} title="Invite a shifter" current="/dashboard/assistant">
        <Notice kind="error">This invitation is no longer among the assistant’s proposals.</Notice>
        <p>
          <a href={dashboardHref(base, '/dashboard/assistant')}>Back to the assistant</a>
        </p>
      </AppShell>,
      404,
    );
  }
  return renderPage(
    c,
    <AppShell base={base} title="Invite a shifter" current="/dashboard/assistant">
      <p>{`Invite ${proposed.shifter_name} to work for ${b.name}? They are asked to connect; once they accept, you can send them shifts.`}</p>
      <form method="post" action={dashboardHref(base, '/dashboard/assistant/invite')} class="actions">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <input type="hidden" name="shifter_id" value={proposed.shifter_id} />
        <SubmitButton>{`Invite ${proposed.shifter_name}`}</SubmitButton>
        <a class="button button-secondary" href={dashboardHref(base, '/dashboard/assistant')}>
          Cancel
        </a>
      </form>
    </AppShell>,
  );
}

export async function postInvite(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const f = await formFields(c);
  try {
    await sendConnection(serviceCtx(c), { business_id: b.id, shifter_id: f('shifter_id', 100) || null });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return renderPage(
      c,
      <AppShell base={base} title="Invite a shifter" current="/dashboard/assistant" error={err.message}>
        <p>
          <a href={dashboardHref(base, '/dashboard/assistant')}>Back to the assistant</a>
        </p>
      </AppShell>,
      err.status as ContentfulStatusCode,
    );
  }
  return c.redirect(dashboardHref(base, '/dashboard/assistant', { notice: 'invited' }), 303);
}
