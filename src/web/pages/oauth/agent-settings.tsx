import { Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';
import { serviceCtx } from '../../../http/create-app';
import { getAgentSettings, updateAgentSettings } from '../../../mcp/confirmation';
import { Card, CsrfField, SubmitButton } from '../../components';
import { renderPage } from '../../render';
import { requireWebUser } from '../../session';
import { AccountShell, noticeFrom, type PageBase, pageBase } from '../account/shared';

/**
 * /account/agents: the person's settings for agents using the agent tool server, here the switch for
 * write confirmations (the same service as PUT /v1/user/agent_settings).
 */

const NOTICES = { saved: 'Your agent settings were saved.' } as const;

function AgentsView({ base, confirmWrites, notice }: { base: PageBase; confirmWrites: boolean; notice?: string | undefined }) {
  return (
    <AccountShell base={base} title="Agents" current="/account/agents" notice={notice}>
      <Card title="Confirm changes agents make">
        <p>
          Apps you connect to the agent tool server (<code>/v1/mcp/</code>) act as you within the access you gave them. With confirmation
          on, every change they make (posting, claiming, cancelling or clocking a shift, changing your profile, counter-offers) is shown to
          you first and runs only once you agree.
        </p>
        <form method="post" action="/account/agents" class="stack">
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

export const agentSettingsPage = new Hono<AppEnv>()
  .use('/account/agents', requireWebUser)
  .get('/account/agents', async (c) => {
    const settings = await getAgentSettings(serviceCtx(c));
    return renderPage(c, <AgentsView base={pageBase(c)} confirmWrites={settings.confirm_writes} notice={noticeFrom(c, NOTICES)} />);
  })
  .post('/account/agents', async (c) => {
    const form = await c.req.formData();
    await updateAgentSettings(serviceCtx(c), { confirm_writes: form.get('confirm_writes') === '1' });
    return c.redirect('/account/agents?notice=saved', 303);
  });
