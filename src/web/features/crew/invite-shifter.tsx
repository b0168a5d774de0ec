// Inviting a shifter to the crew (/dashboard/crew/invite): look up what was typed, confirm who it is,
// then send the connection request.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { ID_MAX_LENGTH } from '@/lib/ids';
import { sendConnection } from '@/services/connections';
import { findPublicShifter, findPublicShifterById, type PublicShifter } from '@/services/profiles';
import { renderPage } from '@/web/render';
import { ConfirmPage } from '@/web/features/dashboard/confirm-page';
import { dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { refusalOf } from '@/web/features/dashboard/refusals';
import { loadCrew } from './crew-data';
import { CREW } from './crew-format';
import { CrewView } from './crew-view';
import { ShifterFacts } from './shifter-facts';

const SHIFTER_ID = /^shf_[0-9A-Za-z]{20}$/;

/**
 * What was typed, as the shifter it names: a profile link's last segment, a slug or a shifter id.
 * Null when nothing public has that name.
 */
async function lookUp(c: Context<AppEnv>, typed: string): Promise<PublicShifter | null> {
  const ctx = serviceCtx(c);
  let key = typed.trim().replace(/^@/, '');
  if (key.includes('/'))
    key =
      key
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '')
        .split('/')
        .pop() ?? '';
  if (!key || key.length > 200) return null;
  if (SHIFTER_ID.test(key)) return findPublicShifterById(ctx, key);
  return findPublicShifter(ctx, key.toLowerCase());
}

/** GET /dashboard/crew/invite?shifter=…: who that is, and the button that sends the request. */
export async function renderInviteShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const typed = (c.req.query('shifter') ?? '').slice(0, 300);
  const found = typed.trim() ? await lookUp(c, typed) : null;
  if (!found) {
    const message = typed.trim()
      ? 'No shifter has this public name or id. Check it with them, or paste the link to their profile.'
      : 'Type their public name, profile link or shifter id.';
    return renderPage(
      c,
      <CrewView
        base={base}
        data={await loadCrew(c, base)}
        error="Check the field marked below."
        shifter={{ value: typed, error: message }}
      />,
      typed.trim() ? 404 : 400,
    );
  }
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Invite a shifter"
      current={CREW}
      action={`${CREW}/invite`}
      button={`Send ${found.display_name} a request`}
      back={CREW}
      hidden={{ shifter_id: found.id, shifter: typed }}
    >
      <ShifterFacts s={found} />
      <p>{`Ask ${found.display_name} to join the crew of ${base.business.name}? Once they accept, you can send them shifts and they see your broadcasts.`}</p>
    </ConfirmPage>,
  );
}

export async function postInviteShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const body = await c.req.parseBody();
  const str = (k: string, max: number) => (typeof body[k] === 'string' ? (body[k] as string).slice(0, max) : '');
  const shifterId = str('shifter_id', ID_MAX_LENGTH);
  const typed = str('shifter', 300);
  try {
    await sendConnection(serviceCtx(c), { business_id: base.business.id, shifter_id: shifterId || null });
  } catch (err) {
    const r = refusalOf(err, ['shifter_id'] as const, { 'CONNECTION-EXISTS-ERR': 'shifter_id', 'SHIFTER-NOT-FND-ERR': 'shifter_id' });
    return renderPage(
      c,
      <CrewView
        base={base}
        data={await loadCrew(c, base)}
        error="The request was not sent: see the message below."
        shifter={{ value: typed, error: r.errors.shifter_id ?? r.message }}
      />,
      r.status,
    );
  }
  return c.redirect(dashboardHref(base, CREW, { notice: 'invited' }), 303);
}
