import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { ID_MAX_LENGTH } from '@/lib/ids';
import {
  listSessions,
  personTimeZone,
  revokeOtherSessions,
  revokeSession,
  type SessionView,
  type TimeZoneSource,
} from '@/services/accounts';
import { Card, PostButtonForm } from '@/web/components';
import { rotateCsrfToken } from '@/web/csrf';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { clearSessionCookie } from '@/web/session';
import { AccountShell, formatInstant, noticeFrom, type PageBase, pageBase, RowAction, ThisBrowser, When } from './shared';

const CURRENT = '/account/sessions';

const NOTICES = {
  revoked: 'That session is signed out.',
  others_revoked: 'Every other session is signed out.',
} as const;

interface SessionsViewProps {
  base: PageBase;
  sessions: SessionView[];
  zone: { timeZone: string; source: TimeZoneSource };
  notice?: string | undefined;
  error?: string | undefined;
}

/** Which zone the times are in, and why: the person's own zone is named, and UTC is said to be UTC. */
function ZoneNote({ zone }: { zone: SessionsViewProps['zone'] }) {
  if (zone.source === 'none')
    return (
      <p class="hint">
        Times are in <strong>UTC</strong>: your account has no time zone yet (a shifter profile or a business gives it one).
      </p>
    );
  const from = zone.source === 'shifter' ? 'your shifter profile’s time zone' : 'your business’s time zone';
  return (
    <p class="hint">
      Times are in <strong>{zone.timeZone}</strong>, {from}.
    </p>
  );
}

function SessionsView({ base, sessions, zone, notice, error }: SessionsViewProps) {
  const others = sessions.filter((s) => !s.current).length;
  const tz = zone.timeZone;
  return (
    <AccountShell base={base} title="Sessions" current={CURRENT} notice={notice} error={error}>
      <p>
        Every sign-in, in a browser or through the API, is a session. Sign out any you do not recognise; your API key is not a session and
        keeps working.
      </p>
      <Card title="Where you are signed in">
        <ZoneNote zone={zone} />
        <ul class="list-plain session-list" aria-label="Your live sessions, newest first">
          {sessions.map((s) => {
            const device = s.device?.label ?? 'Device not recorded';
            return (
              <li class="session-item">
                <p class="session-device">
                  <ThisBrowser here={s.current}>
                    <strong>{device}</strong>
                  </ThisBrowser>
                </p>
                <dl class="pairs">
                  <dt>Signed in</dt>
                  <dd>
                    <When iso={s.created_at} timeZone={tz} />
                  </dd>
                  <dt>Last active</dt>
                  <dd>
                    <When iso={s.last_seen_at} timeZone={tz} />
                  </dd>
                  <dt>Ends</dt>
                  <dd>
                    <When iso={s.expires_at} timeZone={tz} />
                  </dd>
                </dl>
                <RowAction
                  action="/account/sessions/revoke"
                  csrfToken={base.csrfToken}
                  field="session_id"
                  value={s.id}
                  label={s.current ? 'Sign out' : 'Revoke'}
                  context={s.current ? 'this browser' : `${device}, signed in ${formatInstant(s.created_at, tz)}`}
                />
              </li>
            );
          })}
        </ul>
      </Card>
      <Card title="Sign out everywhere else">
        <p>
          {others === 0
            ? 'No other session is signed in.'
            : 'Ends every session except this browser: other browsers and programs signed in with a session token must sign in again.'}
        </p>
        {others > 0 ? (
          <PostButtonForm action="/account/sessions/revoke-others" csrfToken={base.csrfToken} label="Sign out everywhere else" />
        ) : null}
      </Card>
    </AccountShell>
  );
}

async function render(
  c: Context<AppEnv>,
  props: Omit<SessionsViewProps, 'base' | 'sessions' | 'zone'> = {},
  status: ContentfulStatusCode = 200,
) {
  const ctx = serviceCtx(c);
  const [{ data }, zone] = await Promise.all([listSessions(ctx), personTimeZone(ctx)]);
  return renderPage(c, <SessionsView base={pageBase(c)} sessions={data} zone={zone} {...props} />, status);
}

export const sessionsPage = new Hono<AppEnv>()
  .get('/sessions', (c) => render(c, { notice: noticeFrom(c, NOTICES) }))
  .post('/sessions/revoke', async (c) => {
    const field = await formFields(c);
    const id = field('session_id', ID_MAX_LENGTH);
    const self = pageBase(c).user.sessionId;
    try {
      await revokeSession(serviceCtx(c), id);
    } catch (err) {
      const problem = formProblem(c, err, { 'SESSION-NOT-FND-ERR': 'That session had already ended.' });
      return render(c, { error: problem.message }, problem.status);
    }
    if (id === self) {
      // This browser's own session: it is signed out now.
      clearSessionCookie(c);
      rotateCsrfToken(c);
      return c.redirect('/login?notice=signed_out', 303);
    }
    return c.redirect(`${CURRENT}?notice=revoked`, 303);
  })
  .post('/sessions/revoke-others', async (c) => {
    await revokeOtherSessions(serviceCtx(c));
    return c.redirect(`${CURRENT}?notice=others_revoked`, 303);
  });
