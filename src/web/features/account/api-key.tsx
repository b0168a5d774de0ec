import { type Context, Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { type ApiKeyInfo, type ApiKeyIssued, getApiKeyInfo, regenerateApiKey } from '@/services/accounts';
import { Card, CopyField, CsrfField, Notice } from '@/web/components';
import { renderPage } from '@/web/render';
import { AccountShell, DescribedSubmit, type PageBase, pageBase, When } from './shared';
import { formFields, formProblem } from '@/web/forms';

const TITLE = 'API key';
const CURRENT = '/account/api-key';
/** GET: the confirm step; POST: makes the new key. */
const REGENERATE = '/account/api-key/regenerate';

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
          <dl class="pairs">
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
          <>
            <p id="regenerate-hint">
              A new key is made and shown to you once. <strong>The current key stops working at once</strong>: every program using it must
              be given the new one. You are asked to confirm first.
            </p>
            <p>
              <a class="button button-danger" href={REGENERATE} aria-describedby="regenerate-hint">
                Regenerate key…
              </a>
            </p>
          </>
        ) : (
          <>
            <p id="regenerate-hint">A new key is made and shown to you once.</p>
            <RegenerateForm csrfToken={base.csrfToken} label="Make a key" variant="primary" />
          </>
        )}
      </Card>
    </AccountShell>
  );
}

/** The form that makes the new key; `confirm=yes` says the person saw what it ends. */
function RegenerateForm({ csrfToken, label, variant }: { csrfToken: string; label: string; variant: 'primary' | 'danger' }) {
  return (
    <form method="post" action={REGENERATE}>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="confirm" value="yes" />
      <DescribedSubmit describedBy="regenerate-hint" variant={variant}>
        {label}
      </DescribedSubmit>
    </form>
  );
}

/** The confirm step (a page of its own, so it needs no script): what stops working, then yes or cancel. */
function ConfirmView({ base, info }: { base: PageBase; info: ApiKeyInfo }) {
  return (
    <AccountShell base={base} title="Regenerate your API key?" current={CURRENT}>
      <Notice kind="error">
        <p id="regenerate-hint">
          <strong>Every program using your current key stops working at once</strong>: scripts, integrations and apps that call the API with
          the key starting <code>{`${info.prefix}…`}</code> are refused until you give them the new key.
        </p>
      </Notice>
      <dl class="pairs">
        <dt>Current key</dt>
        <dd>
          <code>{`${info.prefix}…`}</code>
        </dd>
        <dt>Last used</dt>
        <dd>
          <When iso={info.last_used_at} never="Not used yet" />
        </dd>
      </dl>
      <p>The new key is shown once, on the next page. Sessions in browsers are not affected.</p>
      <div class="actions">
        <RegenerateForm csrfToken={base.csrfToken} label="Yes, regenerate the key" variant="danger" />
        <a class="button button-secondary" href={CURRENT}>
          Cancel: keep the current key
        </a>
      </div>
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
  .get('/api-key/regenerate', async (c) => {
    const info = await liveKey(c);
    // Nothing to lose without a key: the main page makes one directly.
    if (!info) return c.redirect(CURRENT, 303);
    return renderPage(c, <ConfirmView base={pageBase(c)} info={info} />);
  })
  .post('/api-key/regenerate', async (c) => {
    const field = await formFields(c);
    const info = await liveKey(c);
    // A live key is replaced only from the confirm step's form: anything else shows that step.
    if (info && field('confirm', 8) !== 'yes') return renderPage(c, <ConfirmView base={pageBase(c)} info={info} />, 400);
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
