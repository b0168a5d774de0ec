// Inviting a shifter to the crew (/dashboard/crew/invite): look up what was typed (a profile link, a
// public name or a shifter id; else a search of the public profiles' names), confirm who it is, then
// send the connection request.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { ID_MAX_LENGTH } from '@/lib/ids';
import { sendConnection } from '@/services/connections';
import { AppError } from '@/lib/errors';
import {
  findPublicShifter,
  findPublicShifterById,
  type PublicShifter,
  searchPublicShifters,
  type ShifterSearchResult,
} from '@/services/profiles';
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

/** A search of the public profiles' names, or why there is nothing to show (in words, with its status). */
async function byName(
  c: Context<AppEnv>,
  typed: string,
  cursor: string | undefined,
): Promise<{ found: ShifterSearchResult } | { message: string; status: 400 | 404 | 429 }> {
  try {
    const found = await searchPublicShifters(serviceCtx(c), { name: typed, cursor });
    if (found.data.length) return { found };
    return {
      message:
        'No shifter has this public name or id, and no profile’s name contains it. Check it with them, or invite them by email or phone below.',
      status: 404,
    };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'RATE-LIMIT-ERR') {
      const retryAfter = err.headers?.['Retry-After'];
      if (retryAfter) c.header('Retry-After', retryAfter);
      return { message: err.message, status: 429 };
    }
    // A stale or altered "More shifters" address starts the list over rather than failing.
    if (cursor) return byName(c, typed, undefined);
    if (err.code === 'VALIDATION-ERR') return { message: err.message, status: 400 };
    throw err;
  }
}

/**
 * GET /dashboard/crew/invite?shifter=…: who that is and the button that sends the request; or, when
 * nothing public has that exact name, the shifters whose name contains it, to choose from.
 */
export async function renderInviteShifter(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const typed = (c.req.query('shifter') ?? '').slice(0, 300);
  const cursor = c.req.query('cursor')?.slice(0, 200) || undefined;
  const found = typed.trim() && !cursor ? await lookUp(c, typed) : null;
  if (!found) {
    const search = typed.trim()
      ? await byName(c, typed, cursor)
      : { message: 'Type their name, public name, profile link or shifter id.', status: 400 as const };
    const data = await loadCrew(c, base);
    if ('found' in search) {
      return renderPage(c, <CrewView base={base} data={data} shifter={{ value: typed }} found={search.found} />);
    }
    return renderPage(
      c,
      <CrewView base={base} data={data} error="Check the field marked below." shifter={{ value: typed, error: search.message }} />,
      search.status,
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
