import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { getShifterOfUser, type ShifterView, updateShifterProfile, updateShifterProfileInput } from '@/services/accounts';
import { listShiftRoles, type ShiftRoleView } from '@/services/shifts';
import { WEB_ENTRIES } from '@generated/web/assets';
import { CsrfField, IdempotencyField, SubmitButton, TextareaField, TextField } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf, refusalOf, schemaRefusal } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { PROFILE } from './parts';
import { RANK_FIELDS, RANK_HELP, RankFields, type RankField, type RankTyped, rankInput, rankTypedOf } from './profile-ranking';

/**
 * The shifter's profile ({app_url}/dashboard/shifter/profile): the switch that pauses shift requests
 * (off shows the Paused badge on the public profile /s/{slug}); one form with one Save for the public
 * details (name, headline, about), the time zone and what ranks open shifts for you (the roles you
 * do, your home area, how far you travel, your lowest rate: profile-ranking.tsx); and a preview of
 * what the public sees.
 */

const NOTICES = {
  saved: 'Profile saved.',
  paused: 'Requests paused: your public profile shows Paused, and businesses cannot send you requests.',
  resumed: 'You are taking shift requests again.',
};

type DetailField = 'display_name' | 'headline' | 'bio';
type Field = DetailField | RankField;
const FIELDS: readonly Field[] = ['display_name', 'headline', 'bio', ...RANK_FIELDS];

interface ProfileViewProps {
  base: DashboardBase;
  me: ShifterView;
  roles: ShiftRoleView[];
  typed?: (Partial<Record<DetailField, string>> & RankTyped) | undefined;
  errors?: Partial<Record<Field, string>> | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}

function ProfileView({ base, me, roles, typed, errors = {}, notice, error }: ProfileViewProps) {
  const v = (f: DetailField) => typed?.[f] ?? me[f] ?? '';
  const publicPath = `/s/${encodeURIComponent(me.slug)}`;
  const rank = typed ?? rankTypedOf(me);
  return (
    <AppShell
      base={base}
      side="shifter"
      current={PROFILE}
      title="Profile"
      notice={notice}
      error={error}
      scripts={[WEB_ENTRIES.islands['home-area'].js]}
    >
      <section class="sf-section" aria-labelledby="requests-heading">
        <h2 id="requests-heading">Shift requests</h2>
        <p>
          {me.accept_shift_req ? (
            <>
              <span class="badge badge-ok">Taking requests</span> Businesses of your crews can send you shifts.
            </>
          ) : (
            <>
              <span class="badge badge-warn">Paused</span> Businesses cannot send you requests; your public profile says Paused. Open shifts
              of your crews still show in Find shifts.
            </>
          )}
        </p>
        <form method="post" action={`${PROFILE}/requests`} class="sf-actions">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <input type="hidden" name="accept_shift_req" value={me.accept_shift_req ? '0' : '1'} />
          <SubmitButton variant={me.accept_shift_req ? 'secondary' : 'primary'}>
            {me.accept_shift_req ? 'Pause requests' : 'Take requests again'}
          </SubmitButton>
        </form>
      </section>
      <form method="post" action={PROFILE} novalidate>
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <section class="sf-section" aria-labelledby="details-heading">
          <h2 id="details-heading">Public details</h2>
          <TextField
            label="Name"
            name="display_name"
            value={v('display_name')}
            required
            maxLength={100}
            autocomplete="name"
            error={errors.display_name}
          />
          <TextField
            label="Headline"
            name="headline"
            value={v('headline')}
            maxLength={140}
            hint="One line, like “Line cook, 6 years, weekend nights”."
            error={errors.headline}
          />
          <TextareaField label="About you" name="bio" value={v('bio')} maxLength={2000} rows={5} error={errors.bio} />
        </section>
        <section class="sf-section" aria-labelledby="for-you-heading">
          <h2 id="for-you-heading">Shifts for you</h2>
          <p class="hint">Only you see these. They decide which open shifts Find shifts puts first, and why.</p>
          <RankFields
            typed={rank}
            errors={errors}
            roles={roles}
            currency={me.currency}
            zoneUnset={me.timezone === 'UTC' && !me.timezone_confirmed}
          />
        </section>
        <div class="actions">
          <SubmitButton>Save profile</SubmitButton>
        </div>
      </form>
      <section class="sf-section" aria-labelledby="preview-heading">
        <h2 id="preview-heading">What the public sees</h2>
        <div class="sf-preview">
          <p class="sf-badges">
            <strong>{me.display_name}</strong>
            {me.accept_shift_req ? null : <span class="badge badge-warn">Paused</span>}
          </p>
          {me.headline ? <p>{me.headline}</p> : null}
          {me.city ? <p class="muted">{me.city}</p> : null}
          {me.bio ? <p class="bio">{me.bio}</p> : <p class="empty">No “about you” yet.</p>}
          <p class="muted">
            {me.ratings.count ? `Rated ${me.ratings.average ?? ''} from ${me.ratings.count} review(s).` : 'No reviews yet.'}
          </p>
        </div>
        <p>
          <a href={publicPath}>Open my public profile</a>
        </p>
      </section>
    </AppShell>
  );
}

async function renderProfile(
  c: Context<AppEnv>,
  extra: Omit<ProfileViewProps, 'base' | 'me' | 'roles'> & { status?: ContentfulStatusCode } = {},
) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const [me, roles] = await Promise.all([getShifterOfUser(serviceCtx(c)), listShiftRoles(serviceCtx(c))]);
  const { status, ...rest } = extra;
  return renderPage(c, <ProfileView base={base} me={me} roles={roles} notice={noticeOf(c, NOTICES)} {...rest} />, status ?? 200);
}

export async function getProfile(c: Context<AppEnv>): Promise<Response> {
  return renderProfile(c);
}

export async function postProfile(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const details = { display_name: field('display_name', 200), headline: field('headline', 300), bio: field('bio', 4000) };
  const rank = await rankInput(c);
  const typed = { ...details, ...rank.typed };
  const parsed = updateShifterProfileInput.safeParse({ ...details, ...rank.input });
  if (!parsed.success || Object.keys(rank.errors).length) {
    const r = parsed.success
      ? { status: 400 as const, errors: {}, message: 'Check the fields marked below.' }
      : schemaRefusal(parsed.error, FIELDS, {
          display_name: 'Your name, up to 100 characters.',
          headline: 'Up to 140 characters.',
          bio: 'Up to 2,000 characters.',
          ...RANK_HELP,
        });
    return renderProfile(c, { typed, errors: { ...rank.errors, ...r.errors }, error: r.message, status: r.status });
  }
  try {
    await updateShifterProfile(serviceCtx(c), parsed.data);
  } catch (err) {
    const r = refusalOf(err, FIELDS);
    return renderProfile(c, { typed, errors: r.errors, error: r.message, status: r.status });
  }
  return c.redirect(`${PROFILE}?notice=saved`, 303);
}

export async function postRequestsSwitch(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const on = field('accept_shift_req', 1) === '1';
  await updateShifterProfile(serviceCtx(c), { accept_shift_req: on });
  return c.redirect(`${PROFILE}?notice=${on ? 'resumed' : 'paused'}`, 303);
}
