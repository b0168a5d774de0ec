import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../../http/app-types';
import { serviceCtx } from '../../../http/create-app';
import { ID_MAX_LENGTH } from '../../../lib/ids';
import { listSessions, revokeOtherSessions, revokeSession, type SessionView } from '../../../services/accounts';
import { Card, PostButtonForm } from '../../components';
import { rotateCsrfToken } from '../../csrf';
import { formFields, formProblem } from '../../forms';
import { renderPage } from '../../render';
import { clearSessionCookie } from '../../session';
import { AccountShell, formatInstant, noticeFrom, type PageBase, pageBase, RowAction, ThisBrowser, When } from './shared';

const CURRENT = '/account/sessions';

const NOTICES = {
  revoked: 'That session is signed out.',
  others_revoked: 'Every other session is signed out.',
} as const;

interface SessionsViewProps {
  base: PageBase;
  sessions: SessionView[];
  notice?: string | undefined;
  error?: string | undefined;
}

function SessionsView({ base, sessions, notice, error }: SessionsViewProps) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <AccountShell base={base} title="Sessions" current={CURRENT} notice={notice} error={error}>
      <p>
        Every sign-in, in a browser or through the API, is a session. Sign out any you do not recognise; your API key is not a session and
        keeps working.
      </p>
      <Card title="Where you are signed in">
        <table>
          <caption class="visually-hidden">Your live sessions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Signed in</th>
              <th scope="col">Last active</th>
              <th scope="col">Ends</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr>
                <td>
                  <ThisBrowser here={s.current}>
                    <When iso={s.created_at} />
                  </ThisBrowser>
                </td>
                <td>
                  <When iso={s.last_seen_at} />
                </td>
                <td>
                  <When iso={s.expires_at} />
                </td>
                <td>
                  <RowAction
                    action="/account/sessions/revoke"
                    csrfToken={base.csrfToken}
                    field="session_id"
                    value={s.id}
                    label={s.current ? 'Sign out' : 'Revoke'}
                    context={s.current ? 'this browser' : `the session signed in ${formatInstant(s.created_at)}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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

async function render(c: Context<AppEnv>, props: Omit<SessionsViewProps, 'base' | 'sessions'> = {}, status: ContentfulStatusCode = 200) {
  const { data } = await listSessions(serviceCtx(c));
  return renderPage(c, <SessionsView base={pageBase(c)} sessions={data} {...props} />, status);
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
