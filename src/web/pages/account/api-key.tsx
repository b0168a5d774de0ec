import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../../http/app-types';
import { serviceCtx } from '../../../http/create-app';
import { AppError } from '../../../lib/errors';
import { type ApiKeyInfo, type ApiKeyIssued, getApiKeyInfo, regenerateApiKey } from '../../../services/accounts';
import { Card, CopyField, CsrfField, Notice } from '../../components';
import { renderPage } from '../../render';
import { AccountShell, DescribedSubmit, type PageBase, pageBase, When } from './shared';
import { formProblem } from '../../forms';

const TITLE = 'API key';
const CURRENT = '/account/api-key';

/** The live key, or null when the account has none (revoked by a reset that failed half-way, say). */
async function liveKey(c: Context<AppEnv>): Promise<ApiKeyInfo | null> {
  try {
    return await getApiKeyInfo(serviceCtx(c));
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT-FOUND-ERR') return null;
    throw err;
  }
}

function KeyView({ base, info, error }: { base: PageBase; info: ApiKeyInfo | null; error?: string | undefined }) {
  return (
    <AccountShell base={base} title={TITLE} current={CURRENT} error={error}>
      <p>
        Your personal API key lets programs act as you through the Shiftmarket API: send it as <code>Authorization: Bearer …</code>. Keep it
        as secret as your password.
      </p>
      <Card title="Your key">
        {info ? (
          <dl class="details">
            <dt>Starts with</dt>
            <dd>
              <code>{`${info.prefix}…`}</code>
            </dd>
            <dt>Created</dt>
            <dd>
              <When iso={info.created_at} />
            </dd>
            <dt>Last used</dt>
            <dd>
              <When iso={info.last_used_at} never="Not used yet" />
            </dd>
          </dl>
        ) : (
          <p>This account has no working API key. Make one below.</p>
        )}
        <p class="hint">Only the beginning of the key is kept where it can be shown; the full key was shown once, when it was made.</p>
      </Card>
      <Card title={info ? 'Regenerate the key' : 'Make a key'}>
        {info ? (
          <p id="regenerate-hint">
            A new key is made and shown to you once. <strong>The current key stops working at once</strong>: every program using it must be
            given the new one.
          </p>
        ) : (
          <p id="regenerate-hint">A new key is made and shown to you once.</p>
        )}
        <form method="post" action="/account/api-key/regenerate">
          <CsrfField token={base.csrfToken} />
          <DescribedSubmit describedBy="regenerate-hint" variant={info ? 'danger' : 'primary'}>
            {info ? 'Regenerate key' : 'Make a key'}
          </DescribedSubmit>
        </form>
      </Card>
    </AccountShell>
  );
}

/** The new key, this one time: the answer to the POST itself (no redirect), never stored anywhere readable. */
function NewKeyView({ base, issued }: { base: PageBase; issued: ApiKeyIssued }) {
  return (
    <AccountShell base={base} title={TITLE} current={CURRENT}>
      <Notice kind="success">Your new API key is ready. The old key no longer works.</Notice>
      <Card title="Your new key">
        <CopyField label="API key" value={issued.key} id="new-api-key" />
        <Notice kind="info">
          <p>
            <strong>Copy it now: it will not be shown again.</strong> If you lose it, regenerate it here.
          </p>
        </Notice>
      </Card>
      <p>
        <a href={CURRENT}>Done: back to your API key</a>
      </p>
    </AccountShell>
  );
}

export const apiKeyPage = new Hono<AppEnv>()
  .get('/api-key', async (c) => renderPage(c, <KeyView base={pageBase(c)} info={await liveKey(c)} />))
  .post('/api-key/regenerate', async (c) => {
    let issued: ApiKeyIssued;
    try {
      issued = await regenerateApiKey(serviceCtx(c));
    } catch (err) {
      const problem = formProblem(c, err);
      return renderPage(c, <KeyView base={pageBase(c)} info={await liveKey(c)} error={problem.message} />, problem.status);
    }
    // renderPage answers no-store, so the key stays out of every cache and the history's saved copy.
    return renderPage(c, <NewKeyView base={pageBase(c)} issued={issued} />);
  });
