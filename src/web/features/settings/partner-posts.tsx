/**
 * The posts of /dashboard/settings's partners: link a partner, unlink one (after a confirmation),
 * change what one may do.
 */

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { linkBody, linkPartnerClient, unlinkPartnerClient, updateLinkBody, updatePartnerLink } from '@/services/partners';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { ConfirmView } from '@/web/features/dashboard/confirm';
import { dashboardHref } from '@/web/features/dashboard/context';
import { fieldErrorsOf } from '@/web/features/dashboard/refusals';
import { type LinkFormState, loadSettings, SCOPE_WORDS, SCOPES, SETTINGS, settingsBase, valuesOf } from './settings-shared';
import { SettingsView } from './settings-view';

/** POST /dashboard/settings/partners: links a partner client (linkPartnerClient); none ticked grants all its scopes. */
export async function postLinkPartner(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const f = await formFields(c);
  const sent: LinkFormState = {
    client_id: f('client_id', 100).trim(),
    scopes: SCOPES.filter((s) => f(`scope:${s}`, 1) === '1'),
    idem: f('_idem', 255),
  };
  const again = async (status: ContentfulStatusCode, errors: LinkFormState['errors'], error: string) => {
    const data = await loadSettings(c, base);
    return renderPage(
      c,
      <SettingsView base={base} {...data} values={valuesOf(data.business)} link={{ ...sent, errors }} error={error} />,
      status,
    );
  };
  const parsed = linkBody.safeParse({ client_id: sent.client_id, ...(sent.scopes.length ? { scopes: sent.scopes } : {}) });
  if (!parsed.success) return again(400, { client_id: "Enter the partner's client id." }, 'The partner was not linked.');
  try {
    await linkPartnerClient(serviceCtx(c), base.business!.id, parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, ['client_id', 'scopes'], {
      'PARTNER-CLIENT-NOT-FND-ERR': 'client_id',
      'PARTNER-LINK-EXISTS-ERR': 'client_id',
    });
    return again(
      (err as AppError).status as ContentfulStatusCode,
      errors,
      rest ?? 'The partner was not linked: see the message beside the field.',
    );
  }
  return c.redirect(`${dashboardHref(base, SETTINGS, { notice: 'linked' })}#partners`, 303);
}

/** POST /dashboard/settings/partners/{client_id}/unlink: without `confirm`, the confirmation page; with it, unlinkPartnerClient. */
export async function postUnlinkPartner(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const clientId = c.req.param('client_id') ?? '';
  const f = await formFields(c);
  const back = `${dashboardHref(base, SETTINGS)}#partners`;
  const ctx = serviceCtx(c);
  if (f('confirm') !== '1') {
    const data = await loadSettings(c, base);
    const link = data.links.find((l) => l.client_id === clientId);
    if (!link) return c.redirect(back, 303);
    return renderPage(
      c,
      <ConfirmView
        base={base}
        title="Unlink a partner"
        current={SETTINGS}
        action={dashboardHref(base, `${SETTINGS}/partners/${encodeURIComponent(clientId)}/unlink`)}
        fields={{ _idem: f('_idem', 255) }}
        confirmLabel={`Unlink ${link.client_name}`}
        cancelHref={back}
        danger
      >
        <p>{`Unlink ${link.client_name} from ${base.business!.name}? Its access ends at once: it may no longer ${link.scopes.map((s) => SCOPE_WORDS[s] ?? s).join(', ')}.`}</p>
        <p>To give it access again, link it again with its client id.</p>
      </ConfirmView>,
    );
  }
  try {
    await unlinkPartnerClient(ctx, base.business!.id, clientId);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const data = await loadSettings(c, base);
    return renderPage(
      c,
      <SettingsView base={base} {...data} values={valuesOf(data.business)} error={err.message} />,
      err.status as ContentfulStatusCode,
    );
  }
  return c.redirect(`${dashboardHref(base, SETTINGS, { notice: 'unlinked' })}#partners`, 303);
}

/**
 * POST /dashboard/settings/partners/{client_id}/scopes: replaces what a linked partner may do
 * (updatePartnerLink, within the partner's own scopes). A refusal opens the link's form again with
 * the boxes as they were ticked and the service's message under them.
 */
export async function postPartnerScopes(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const clientId = c.req.param('client_id') ?? '';
  const f = await formFields(c);
  const scopes = SCOPES.filter((s) => f(`scope:${s}`, 1) === '1');
  const idem = f('_idem', 255);
  const again = async (status: ContentfulStatusCode, error: string) => {
    const data = await loadSettings(c, base);
    // A link that is gone has no boxes to show the message under: the page says it.
    const shown = data.links.some((l) => l.client_id === clientId);
    return renderPage(
      c,
      <SettingsView
        base={base}
        {...data}
        values={valuesOf(data.business)}
        scopesForm={shown ? { client_id: clientId, scopes, error, idem } : undefined}
        error={shown ? "Not changed: see the message under the partner's boxes." : error}
      />,
      status,
    );
  };
  const parsed = updateLinkBody.safeParse({ scopes });
  if (!parsed.success) return again(400, 'Tick at least one; to end its access, unlink it.');
  try {
    await updatePartnerLink(serviceCtx(c), base.business!.id, clientId, parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, ['scopes'], {});
    return again((err as AppError).status as ContentfulStatusCode, errors.scopes ?? rest ?? 'Not changed.');
  }
  return c.redirect(`${dashboardHref(base, SETTINGS, { notice: 'scopes' })}#partners`, 303);
}
