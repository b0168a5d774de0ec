// The records page's credential routes: add a credential (the form without its document), and show,
// hide or delete one.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { createCredential, createCredentialInput, deleteCredential, updateCredential } from '@/services/shifter-records';
import { dashboardBase } from '@/web/features/dashboard/context';
import { renderRecords } from './records-page';
import { PATH, refusedBy, schemaErrors, text } from './records-shared';

export async function postCredential(c: Context<AppEnv>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const b = await c.req.parseBody();
  const typed = {
    label: text(b.label),
    issuer: text(b.issuer),
    expires_on: text(b.expires_on),
    is_visible: b.is_visible === '1' ? '1' : '0',
  };
  const parsed = createCredentialInput.safeParse({
    label: typed.label,
    ...(typed.issuer ? { issuer: typed.issuer } : {}),
    ...(typed.expires_on ? { expires_on: typed.expires_on } : {}),
    is_visible: typed.is_visible === '1',
  });
  if (!parsed.success)
    return renderRecords(c, { credential: { errors: schemaErrors(parsed.error.issues), typed, target: 'new' }, status: 400 });
  try {
    await createCredential(serviceCtx(c), base.shifterId, parsed.data);
  } catch (err) {
    const r = refusedBy(err, typed, 'new');
    return renderRecords(c, { credential: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=credential_added`, 303);
}

/** A credential's visibility (show, hide) or its removal, with its document. */
export async function postCredentialEntry(c: Context<AppEnv, '/credentials/:credential'>) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const action = text((await c.req.parseBody()).action);
  const id = c.req.param('credential');
  let notice: string;
  try {
    if (action === 'delete') {
      await deleteCredential(serviceCtx(c), base.shifterId, id);
      notice = 'credential_deleted';
    } else if (action === 'show' || action === 'hide') {
      const cr = await updateCredential(serviceCtx(c), base.shifterId, id, { is_visible: action === 'show' });
      notice = cr.is_visible ? 'credential_shown' : 'credential_hidden';
    } else return c.text('Unknown action', 400);
  } catch (err) {
    const r = refusedBy(err, {}, id);
    return renderRecords(c, { credential: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=${notice}`, 303);
}
