import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { grantHelpers } from '@/mcp/oauth';
import {
  type AgentGrant,
  GRANT_ID_MAX_LENGTH,
  getAgentSettings,
  grantIdSchema,
  listAgentGrants,
  revokeAgentGrant,
  updateAgentSettings,
} from '@/services/agents';
import { Card, CsrfField, SubmitButton } from '@/web/components';
import { formFields, formProblem } from '@/web/forms';
import { renderPage } from '@/web/render';
import { requireWebUser } from '@/web/session';
import { AccountShell, formatInstant, noticeFrom, type PageBase, pageBase, RowAction, When } from '../account/shared';

/**
 * /account/agents: the person's settings for agents using the agent tool server: the apps they
 * connected (OAuth grants, each revocable; the same service as /v1/user/agent_grants) and the switch
 * for write confirmations (the same service as PUT /v1/user/agent_settings).
 */

const CURRENT = '/account/agents';

const NOTICES = { saved: 'Your agent settings were saved.', revoked: 'That app is disconnected: its access no longer works.' } as const;

const SCOPE_WORDS: Record<string, string> = { read: 'Read', write: 'Make changes', payment: 'Payments' };

interface AgentsViewProps {
  base: PageBase;
  confirmWrites: boolean;
  grants: AgentGrant[];
  notice?: string | undefined;
  error?: string | undefined;
}

function ConnectedApps({ base, grants }: { base: PageBase; grants: AgentGrant[] }) {
  return (
    <Card title="Connected apps">
      {grants.length === 0 ? (
        <p>No app is connected to your account.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Apps you allowed to use your account, newest first</caption>
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Access</th>
              <th scope="col">Connected</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.map((g) => (
              <tr>
                <td>
                  {g.client_name ?? 'Unnamed app'}
                  <br />
                  <small>
                    <code>{g.client_id}</code>
                  </small>
                </td>
                <td>{g.scopes.map((s) => SCOPE_WORDS[s] ?? s).join(', ')}</td>
                <td>
                  <When iso={g.created_at} />
                </td>
                <td>
                  <RowAction
                    action={`${CURRENT}/revoke`}
                    csrfToken={base.csrfToken}
                    field="grant_id"
                    value={g.id}
                    label="Revoke"
                    context={`${g.client_name ?? g.client_id}, connected ${formatInstant(g.created_at)}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function AgentsView({ base, confirmWrites, grants, notice, error }: AgentsViewProps) {
  return (
    <AccountShell base={base} title="Agents" current={CURRENT} notice={notice} error={error}>
      <ConnectedApps base={base} grants={grants} />
      <Card title="Confirm changes agents make">
        <p>
          Apps you connect to the agent tool server (<code>/v1/mcp/</code>) act as you within the access you gave them. With confirmation
          on, every change they make (posting, claiming, cancelling or clocking a shift, changing your profile, counter-offers) is shown to
          you first and runs only once you agree.
        </p>
        <form method="post" action={CURRENT} class="stack">
          <CsrfField token={base.csrfToken} />
          <div class="field checkbox">
            <input
              type="checkbox"
              id="confirm-writes"
              name="confirm_writes"
              value="1"
              checked={confirmWrites}
              aria-describedby="confirm-writes-hint"
            />
            <label for="confirm-writes">Ask me before an agent changes anything</label>
          </div>
          <p class="hint" id="confirm-writes-hint">
            Payments always need your confirmation on a Shiftmarket page, whatever this says.
          </p>
          <SubmitButton>Save</SubmitButton>
        </form>
      </Card>
    </AccountShell>
  );
}

async function render(c: Context<AppEnv>, props: Pick<AgentsViewProps, 'notice' | 'error'> = {}, status: ContentfulStatusCode = 200) {
  const ctx = serviceCtx(c);
  const [settings, grants] = await Promise.all([getAgentSettings(ctx), listAgentGrants(ctx, grantHelpers(c.env))]);
  return renderPage(c, <AgentsView base={pageBase(c)} confirmWrites={settings.confirm_writes} grants={grants.data} {...props} />, status);
}

export const agentSettingsPage = new Hono<AppEnv>()
  .use(CURRENT, requireWebUser)
  .use(`${CURRENT}/*`, requireWebUser)
  .get(CURRENT, (c) => render(c, { notice: noticeFrom(c, NOTICES) }))
  .post(CURRENT, async (c) => {
    const form = await c.req.formData();
    await updateAgentSettings(serviceCtx(c), { confirm_writes: form.get('confirm_writes') === '1' });
    return c.redirect(`${CURRENT}?notice=saved`, 303);
  })
  .post(`${CURRENT}/revoke`, async (c) => {
    const field = await formFields(c);
    const id = grantIdSchema.safeParse(field('grant_id', GRANT_ID_MAX_LENGTH));
    try {
      if (!id.success) throw new AppError('AGENT-GRANT-NOT-FND-ERR');
      await revokeAgentGrant(serviceCtx(c), grantHelpers(c.env), id.data);
    } catch (err) {
      const problem = formProblem(c, err, { 'AGENT-GRANT-NOT-FND-ERR': 'That app was already disconnected.' });
      return render(c, { error: problem.message }, problem.status);
    }
    return c.redirect(`${CURRENT}?notice=revoked`, 303);
  });
