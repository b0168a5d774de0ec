import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { DELIVERY_STATUSES, listDeliveries } from '@/services/notifications';
import { joinSupportThread, listSupportQueue } from '@/services/messaging';
import { listDisputes, resolveDispute, type ReviewView } from '@/services/reviews';
import { CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { dateTimeIn } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderError, renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';
import { dayOf, Stars } from '../reviews/shared';

/**
 * The admin's queues (/admin): review disputes to uphold or reject, escalated support threads to
 * join, and the notification deliveries. The services decide who is an admin and what they reach (the
 * demo cast's admin sees demo accounts only); a person without admin standing gets the 403 page, as
 * the API answers them.
 */

const QUEUES = [
  { path: '/admin', label: 'Disputes' },
  { path: '/admin/support', label: 'Support' },
  { path: '/admin/deliveries', label: 'Notification deliveries' },
] as const;

const NOTICES: Record<string, string> = {
  upheld: 'The dispute was upheld: the review no longer shows on the profile or in its average.',
  rejected: 'The dispute was rejected: the review stays visible.',
};

const forbidden = (c: Context<AppEnv>) => renderError(c, 403, 'Not allowed', 'These pages are for the support team’s admins.');

/** An admin page, or the 403 page for anyone else (the services refuse them with FORBIDDEN-ERR). */
async function adminOnly(c: Context<AppEnv>, page: (base: DashboardBase) => Promise<Response>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.isAdmin) return forbidden(c);
  try {
    return await page(base);
  } catch (err) {
    if (err instanceof AppError && err.code === 'FORBIDDEN-ERR') return forbidden(c);
    throw err;
  }
}

function QueueNav({ current }: { current: string }) {
  return (
    <nav class="subnav" aria-label="Admin queues">
      <ul>
        {QUEUES.map((q) => (
          <li>
            <a href={q.path} aria-current={q.path === current ? 'page' : undefined}>
              {q.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const UTC = 'UTC';

function DisputeItem({ base, r }: { base: DashboardBase; r: ReviewView }) {
  return (
    <li class="queue-item" id={`dispute-${r.id}`}>
      <div class="review-head">
        <Stars rating={r.rating} />
        <strong>{`${r.review_by_name ?? r.review_by} on ${r.review_on_name ?? r.review_on}`}</strong>
        <span class="muted">{`written ${dayOf(r.created_at)}, disputed ${dayOf(r.disputed_at)}`}</span>
        {r.dispute_status && r.dispute_status !== 'pending' ? <span class="badge">{r.dispute_status}</span> : null}
      </div>
      {r.review_text ? <p class="review-text">{r.review_text}</p> : <p class="muted">A rating without text.</p>}
      <p>
        <strong>Reason given: </strong>
        <span class="review-text">{r.dispute_reason ?? ''}</span>
      </p>
      {r.dispute_status === 'pending' ? (
        <form method="post" action={`/admin/disputes/${encodeURIComponent(r.id)}/resolve`} class="actions">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <SubmitButton name="decision" value="upheld" variant="danger">
            Uphold: remove the review
          </SubmitButton>
          <SubmitButton name="decision" value="rejected" variant="secondary">
            Reject: keep it
          </SubmitButton>
        </form>
      ) : null}
    </li>
  );
}

export function renderDisputes(c: Context<AppEnv>): Promise<Response> {
  return adminOnly(c, async (base) => {
    const all = c.req.query('status') === 'all';
    const list = await listDisputes(serviceCtx(c), {
      status_filter: all ? 'all' : 'pending',
      limit: 25,
      cursor: c.req.query('cursor') || undefined,
    });
    const more = list.next_cursor ? `/admin?${new URLSearchParams({ ...(all ? { status: 'all' } : {}), cursor: list.next_cursor })}` : null;
    return renderPage(
      c,
      <AppShell base={base} title="Admin" side="shared" current="/admin" notice={NOTICES[c.req.query('notice') ?? '']}>
        <QueueNav current="/admin" />
        <section class="card" aria-labelledby="disputes-title">
          <h2 id="disputes-title">{all ? 'Every disputed review' : 'Review disputes waiting for a decision'}</h2>
          <p class="hint">
            {all ? 'Newest dispute first. ' : 'Oldest first. Upheld reviews leave every list and average; rejected ones stay. '}
            <a href={all ? '/admin' : '/admin?status=all'}>{all ? 'Show the open queue' : 'Show every dispute'}</a>
          </p>
          {list.data.length ? (
            <ul class="list-plain">
              {list.data.map((r) => (
                <DisputeItem base={base} r={r} />
              ))}
            </ul>
          ) : (
            <p class="empty">{all ? 'No review was ever disputed.' : 'No dispute is waiting.'}</p>
          )}
          {more ? <a href={more}>More disputes</a> : null}
        </section>
      </AppShell>,
    );
  });
}

export function postResolve(c: Context<AppEnv>): Promise<Response> {
  return adminOnly(c, async () => {
    const f = await formFields(c);
    const decision = f('decision', 10);
    if (decision !== 'upheld' && decision !== 'rejected') return renderError(c, 400, 'Choose a decision', 'Uphold or reject the dispute.');
    try {
      await resolveDispute(serviceCtx(c), c.req.param('id') ?? '', decision);
    } catch (err) {
      if (err instanceof AppError && (err.code === 'REVIEW-DISPUTE-STATE-ERR' || err.code === 'REVIEW-NOT-FND-ERR')) {
        return renderError(c, err.status, 'Already decided', 'This dispute was decided already, or the review is gone.');
      }
      throw err;
    }
    return c.redirect(`/admin?notice=${decision}`, 303);
  });
}

export function renderSupport(c: Context<AppEnv>): Promise<Response> {
  return adminOnly(c, async (base) => {
    const page = await listSupportQueue(serviceCtx(c), { limit: 25, cursor: c.req.query('cursor') || undefined });
    return renderPage(
      c,
      <AppShell base={base} title="Admin" side="shared" current="/admin">
        <QueueNav current="/admin/support" />
        <section class="card" aria-labelledby="support-title">
          <h2 id="support-title">Support conversations asked for a person</h2>
          <p class="hint">Latest activity first. Join one to answer it from your inbox.</p>
          {page.data.length ? (
            <ul class="list-plain">
              {page.data.map((t) => {
                const person = t.participants.find((p) => p.kind === 'user' && !p.is_automated);
                return (
                  <li class="queue-item" id={`support-${t.id}`}>
                    <div class="review-head">
                      <strong>{t.subject ?? 'Support conversation'}</strong>
                      <span class="muted">{`from ${person?.name ?? 'a person'}`}</span>
                      {t.as ? <span class="badge badge-ok">Joined</span> : null}
                    </div>
                    {t.last_message ? (
                      <p class="muted">{`Latest, ${dateTimeIn(t.last_message.at, UTC)} UTC: ${t.last_message.preview}`}</p>
                    ) : null}
                    <div class="actions">
                      {t.as ? (
                        <a class="button button-secondary" href={`/inbox/${encodeURIComponent(t.id)}`}>
                          Open in the inbox
                        </a>
                      ) : (
                        <form method="post" action={`/admin/support/${encodeURIComponent(t.id)}/join`} class="inline-form">
                          <CsrfField token={base.csrfToken} />
                          <IdempotencyField />
                          <SubmitButton>Join and answer</SubmitButton>
                        </form>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p class="empty">No one is waiting for the support team.</p>
          )}
          {page.next_cursor ? <a href={`/admin/support?cursor=${encodeURIComponent(page.next_cursor)}`}>More conversations</a> : null}
        </section>
      </AppShell>,
    );
  });
}

export function postJoin(c: Context<AppEnv>): Promise<Response> {
  return adminOnly(c, async () => {
    const id = c.req.param('id') ?? '';
    try {
      await joinSupportThread(serviceCtx(c), id);
    } catch (err) {
      if (err instanceof AppError && (err.code === 'MSG-NOT-PARTICIPANT' || err.code === 'MSG-NOT-FND-ERR')) {
        return renderError(c, 404, 'Page not found', 'There is no such support conversation in your reach.');
      }
      if (err instanceof AppError && err.code === 'CONFLICT-ERR') return renderError(c, 409, 'Not escalated', err.message);
      throw err;
    }
    return c.redirect(`/inbox/${encodeURIComponent(id)}`, 303);
  });
}

export function renderDeliveries(c: Context<AppEnv>): Promise<Response> {
  return adminOnly(c, async (base) => {
    const asked = c.req.query('status');
    const status = (DELIVERY_STATUSES as readonly string[]).includes(asked ?? '')
      ? (asked as (typeof DELIVERY_STATUSES)[number])
      : undefined;
    const page = await listDeliveries(serviceCtx(c), {
      limit: 50,
      cursor: c.req.query('cursor') || undefined,
      ...(status ? { status } : {}),
    });
    const more = page.next_cursor
      ? `/admin/deliveries?${new URLSearchParams({ ...(status ? { status } : {}), cursor: page.next_cursor })}`
      : null;
    return renderPage(
      c,
      <AppShell base={base} title="Admin" side="shared" current="/admin">
        <QueueNav current="/admin/deliveries" />
        <section class="card" aria-labelledby="deliveries-title">
          <h2 id="deliveries-title">Notification deliveries</h2>
          <nav class="subnav subnav-small" aria-label="Delivery status">
            <ul>
              <li>
                <a href="/admin/deliveries" aria-current={status ? undefined : 'page'}>
                  Every status
                </a>
              </li>
              {DELIVERY_STATUSES.map((s) => (
                <li>
                  <a href={`/admin/deliveries?status=${s}`} aria-current={s === status ? 'page' : undefined}>
                    {s}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {page.data.length ? (
            <section class="table-wrap" tabindex={0} aria-labelledby="deliveries-caption">
              <table class="deliveries-table">
                <caption id="deliveries-caption" class="visually-hidden">
                  Notification deliveries, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Created (UTC)</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Channel</th>
                    <th scope="col">Status</th>
                    <th scope="col">To</th>
                    <th scope="col">Title</th>
                    <th scope="col">Attempts</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((d) => (
                    <tr>
                      <td class="nowrap">{dateTimeIn(d.created_at, UTC)}</td>
                      <td>{d.kind}</td>
                      <td>{`${d.channel}${d.provider ? ` (${d.provider})` : ''}`}</td>
                      <td>
                        {d.status}
                        {d.last_error ? <span class="muted">{` · ${d.last_error}`}</span> : null}
                      </td>
                      <td>{d.destination ?? '—'}</td>
                      <td>{d.title}</td>
                      <td>{d.attempts}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : (
            <p class="empty">No deliveries{status ? ` with the status ${status}` : ''}.</p>
          )}
          {more ? <a href={more}>Older deliveries</a> : null}
        </section>
      </AppShell>,
    );
  });
}
