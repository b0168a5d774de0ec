import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { type BusinessView, makeDefaultBusiness } from '@/services/accounts';
import type { BusinessRole } from '@/services/access';
import { businessSettingsInput, getBusinessSettings, updateSettings } from '@/services/businesses';
import {
  linkBody,
  linkPartnerClient,
  listPartnerLinks,
  type PartnerLinkView,
  partnerScopeSchema,
  unlinkPartnerClient,
  updateLinkBody,
  updatePartnerLink,
} from '@/services/partners';
import { Card, CsrfField, IdempotencyField, InputField, Notice, SubmitButton } from '@/web/components';
import { formatDate, formatMoney } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { ConfirmView } from '../dashboard/confirm';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { fieldErrorsOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';

/**
 * /dashboard/settings: the business's profile (name, address, position, time zone; the slug is shown,
 * it is set when the business is made), its clock-in rules (geofence radius, photo), weekly budget and
 * auto-fill on cancel, whether it is the owner's default business, and the partners linked to it. Each
 * group is its own small form through updateSettings (or makeDefaultBusiness, the partner links'
 * services); a refusal shows the page again with what was typed in that form and the message beside
 * its field. Teammates see the same page read-only (the services refuse their posts too).
 */

const SETTINGS = '/dashboard/settings';

const SECTIONS = ['profile', 'clock', 'budget', 'autofill'] as const;
type Section = (typeof SECTIONS)[number];

const FIELDS = [
  'name',
  'address',
  'latitude',
  'longitude',
  'timezone',
  'geofence_radius_m',
  'require_clock_photo',
  'weekly_labor_budget',
  'auto_fill_on_cancel',
] as const;
type Field = (typeof FIELDS)[number];
const SECTION_FIELDS: Record<Section, readonly Field[]> = {
  profile: ['name', 'address', 'latitude', 'longitude', 'timezone'],
  clock: ['geofence_radius_m', 'require_clock_photo'],
  budget: ['weekly_labor_budget'],
  autofill: ['auto_fill_on_cancel'],
};

/** What a field's refusal by the schema says (the service's own messages are shown as they come). */
const FIELD_HELP: Record<Field, string> = {
  name: 'Enter the business name, 1 to 120 characters.',
  address: 'Keep the address under 300 characters.',
  latitude: 'Enter a latitude from -90 to 90, e.g. 38.7223, or leave it empty.',
  longitude: 'Enter a longitude from -180 to 180, e.g. -9.1393, or leave it empty.',
  timezone: 'Enter a time zone name as the IANA database writes it, e.g. America/New_York or Europe/Lisbon.',
  geofence_radius_m: 'Enter a whole number of meters from 10 to 100000, or leave it empty for no check.',
  require_clock_photo: 'Choose whether a photo is required.',
  weekly_labor_budget: 'Enter the budget as an amount of 0 or more, e.g. 4500, or leave it empty for none.',
  auto_fill_on_cancel: 'Choose whether to auto-fill.',
};

const NOTICES: Record<string, string> = {
  profile: 'The profile was saved.',
  clock: 'The clock-in rules were saved.',
  budget: 'The weekly budget was saved.',
  autofill: 'Auto-fill on cancel was saved.',
  default: 'This is now your default business.',
  linked: 'The partner was linked.',
  scopes: 'What the partner may do was changed: it applies from its next request.',
  unlinked: 'The partner was unlinked: its access to this business ended.',
};

const SCOPE_WORDS: Record<string, string> = {
  'shifts:read': 'read your shift requests and open broadcasts',
  'shifts:write': 'post shifts for you',
  'shifters:read': 'read your crew',
  'webhooks:manage': 'manage its webhook endpoints',
};
const SCOPES = partnerScopeSchema.options;

/** The forms' values as text, as the page shows them. */
type Values = Record<Exclude<Field, 'require_clock_photo' | 'auto_fill_on_cancel'>, string> & {
  require_clock_photo: boolean;
  auto_fill_on_cancel: boolean;
};

function valuesOf(b: BusinessView): Values {
  const text = (v: number | string | null) => (v === null ? '' : String(v));
  return {
    name: b.name,
    address: text(b.address),
    latitude: text(b.latitude),
    longitude: text(b.longitude),
    timezone: b.timezone,
    geofence_radius_m: text(b.geofence_radius_m),
    require_clock_photo: b.require_clock_photo,
    weekly_labor_budget: text(b.weekly_labor_budget),
    auto_fill_on_cancel: b.auto_fill_on_cancel,
  };
}

/** A link's scopes as a refused change left them (ticked as sent), with the message. */
interface ScopesFormState {
  client_id: string;
  scopes: string[];
  error: string;
  idem: string;
}

interface LinkFormState {
  client_id: string;
  scopes: string[];
  errors?: { client_id?: string | undefined; scopes?: string | undefined };
  idem?: string | undefined;
}

interface SettingsViewProps {
  base: DashboardBase;
  business: BusinessView;
  role: BusinessRole;
  links: PartnerLinkView[];
  values: Values;
  /** The form that was refused, with its messages and key. */
  refused?: { section: Section; errors: Partial<Record<Field, string>>; idem: string } | undefined;
  link?: LinkFormState | undefined;
  scopesForm?: ScopesFormState | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}

function SectionForm(props: { base: DashboardBase; section: Section; idem?: string | undefined; label: string; children: unknown }) {
  return (
    <form method="post" action={dashboardHref(props.base, SETTINGS)} class="stack" novalidate id={`settings-${props.section}`}>
      <CsrfField token={props.base.csrfToken} />
      <IdempotencyField value={props.idem} />
      <input type="hidden" name="section" value={props.section} />
      {props.children}
      <SubmitButton>{props.label}</SubmitButton>
    </form>
  );
}

function Checkbox(props: { name: Field; label: string; checked: boolean; error?: string | undefined }) {
  const id = `field-${props.name}`;
  return (
    <div class="field checkbox">
      <input
        type="checkbox"
        id={id}
        name={props.name}
        value="1"
        checked={props.checked}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      <label for={id}>{props.label}</label>
      {props.error ? (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** The settings as a teammate reads them: the same facts, no forms. */
function ReadOnly({ business: b, links }: { business: BusinessView; links: PartnerLinkView[] }) {
  const yes = (v: boolean) => (v ? 'Yes' : 'No');
  return (
    <>
      <Notice kind="info">
        <p>You see the settings as a teammate: only the owner changes them.</p>
      </Notice>
      <Card title="Profile">
        <dl class="pairs">
          <dt>Name</dt>
          <dd>{b.name}</dd>
          <dt>Slug</dt>
          <dd>
            <code>{b.slug}</code>
          </dd>
          <dt>Business id</dt>
          <dd>
            <code>{b.id}</code> <span class="hint">(a partner you link and the API ask for it)</span>
          </dd>
          <dt>Address</dt>
          <dd>{b.address ?? '—'}</dd>
          <dt>Position</dt>
          <dd>{b.latitude !== null && b.longitude !== null ? `${b.latitude}, ${b.longitude}` : '—'}</dd>
          <dt>Time zone</dt>
          <dd>{b.timezone}</dd>
        </dl>
      </Card>
      <Card title="Shifts and pay">
        <dl class="pairs">
          <dt>Clock-in geofence</dt>
          <dd>{b.geofence_radius_m === null ? 'No check' : `${b.geofence_radius_m} m`}</dd>
          <dt>Photo at clock-in and out</dt>
          <dd>{yes(b.require_clock_photo)}</dd>
          <dt>Weekly budget</dt>
          <dd>{b.weekly_labor_budget === null ? 'None' : formatMoney(b.weekly_labor_budget, b.currency)}</dd>
          <dt>Auto-fill on cancel</dt>
          <dd>{yes(b.auto_fill_on_cancel)}</dd>
        </dl>
      </Card>
      <PartnersCard links={links} />
    </>
  );
}

/** What a linked partner may do, changed in place (updatePartnerLink): folded away until asked for, open after a refusal. */
function ScopesForm({
  base,
  link: l,
  n,
  state,
}: {
  base: DashboardBase;
  link: PartnerLinkView;
  n: number;
  state?: ScopesFormState | undefined;
}) {
  const ticked = state?.scopes ?? l.scopes;
  const errorId = `link-${n}-scopes-error`;
  return (
    <details class="scopes-edit" open={Boolean(state)}>
      <summary>{`Change what ${l.client_name} may do`}</summary>
      <form method="post" action={dashboardHref(base, `${SETTINGS}/partners/${encodeURIComponent(l.client_id)}/scopes`)} class="stack">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField value={state?.idem} />
        <fieldset aria-describedby={state ? errorId : undefined}>
          <legend>{`What ${l.client_name} may do for this business`}</legend>
          {SCOPES.map((s) => (
            <div class="choice">
              <input type="checkbox" id={`link-${n}-${s.replace(':', '-')}`} name={`scope:${s}`} value="1" checked={ticked.includes(s)} />
              <label for={`link-${n}-${s.replace(':', '-')}`}>{`${s}: ${SCOPE_WORDS[s]}`}</label>
            </div>
          ))}
          {state ? (
            <p class="field-error" id={errorId}>
              {state.error}
            </p>
          ) : null}
        </fieldset>
        <SubmitButton variant="secondary">Save what it may do</SubmitButton>
      </form>
    </details>
  );
}

function PartnersCard(props: {
  links: PartnerLinkView[];
  base?: DashboardBase;
  link?: LinkFormState | undefined;
  scopesForm?: ScopesFormState | undefined;
}) {
  const { links, base, link } = props;
  const errors = link?.errors ?? {};
  return (
    <section class="card" id="partners" aria-labelledby="partners-head">
      <h2 id="partners-head">Linked partners</h2>
      <p class="hint">Partners are other services (a scheduling or payroll tool) that act for this business with the scopes it granted.</p>
      {links.length ? (
        <ul class="list-plain">
          {links.map((l, n) => (
            <li class="row-actions">
              <span>
                <strong>{l.client_name}</strong>
                {l.client_status === 'disabled' ? <span class="badge badge-warn">Disabled</span> : null}
                <span class="muted">{` · linked ${formatDate(l.created_at.slice(0, 10))}`}</span>
                <span class="scope-list">
                  {l.scopes.map((s) => (
                    <span class="badge" title={SCOPE_WORDS[s]}>
                      {s}
                    </span>
                  ))}
                </span>
                <span class="visually-hidden">{`: may ${l.scopes.map((s) => SCOPE_WORDS[s] ?? s).join(', ')}`}</span>
              </span>
              {base ? (
                <form
                  method="post"
                  action={dashboardHref(base, `${SETTINGS}/partners/${encodeURIComponent(l.client_id)}/unlink`)}
                  class="inline-form"
                >
                  <CsrfField token={base.csrfToken} />
                  <IdempotencyField />
                  <button type="submit" class="button button-secondary" aria-label={`Unlink ${l.client_name}`}>
                    Unlink
                  </button>
                </form>
              ) : null}
              {base ? (
                <ScopesForm base={base} link={l} n={n} state={props.scopesForm?.client_id === l.client_id ? props.scopesForm : undefined} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No partner is linked to this business.</p>
      )}
      {base ? (
        <form method="post" action={dashboardHref(base, `${SETTINGS}/partners`)} class="stack" novalidate id="link-partner">
          <h3>Link a partner</h3>
          <CsrfField token={base.csrfToken} />
          <IdempotencyField value={link?.idem} />
          <InputField
            label="The partner's client id"
            name="client_id"
            type="text"
            value={link?.client_id ?? ''}
            hint="The partner gives it to you; it starts with pc_."
            error={errors.client_id}
            autofocus={Boolean(errors.client_id)}
          />
          <fieldset aria-describedby={errors.scopes ? 'scopes-error' : 'scopes-hint'}>
            <legend>What it may do (none ticked: everything the partner asks for)</legend>
            {SCOPES.map((s) => (
              <div class="choice">
                <input
                  type="checkbox"
                  id={`scope-${s.replace(':', '-')}`}
                  name={`scope:${s}`}
                  value="1"
                  checked={link?.scopes.includes(s)}
                />
                <label for={`scope-${s.replace(':', '-')}`}>{`${s}: ${SCOPE_WORDS[s]}`}</label>
              </div>
            ))}
            {errors.scopes ? (
              <p class="field-error" id="scopes-error">
                {errors.scopes}
              </p>
            ) : (
              <p class="hint" id="scopes-hint">
                A partner gets only scopes its own registration has.
              </p>
            )}
          </fieldset>
          <SubmitButton variant="secondary">Link the partner</SubmitButton>
        </form>
      ) : null}
    </section>
  );
}

export function SettingsView(props: SettingsViewProps) {
  const { base, business: b, role, values, refused } = props;
  const err = (section: Section, f: Field) => (refused?.section === section ? refused.errors[f] : undefined);
  const idem = (section: Section) => (refused?.section === section ? refused.idem : undefined);
  const first = (section: Section) => SECTION_FIELDS[section].find((f) => err(section, f));
  if (role === 'teammate') {
    return (
      <AppShell base={base} title="Settings" current={SETTINGS} notice={props.notice} error={props.error}>
        <ReadOnly business={b} links={props.links} />
      </AppShell>
    );
  }
  const field = (section: Section, name: Exclude<Field, 'require_clock_photo' | 'auto_fill_on_cancel'>) => ({
    name,
    value: values[name],
    error: err(section, name),
    autofocus: first(section) === name,
  });
  return (
    <AppShell base={base} title="Settings" current={SETTINGS} notice={props.notice} error={props.error}>
      <Card title="Profile">
        <SectionForm base={base} section="profile" idem={idem('profile')} label="Save the profile">
          <div class="form-grid">
            <InputField label="Name" type="text" maxLength={120} {...field('profile', 'name')} />
            <InputField
              label="Time zone"
              type="text"
              maxLength={64}
              hint="Shift times are in this zone; changing it keeps upcoming shifts at the same wall-clock times."
              {...field('profile', 'timezone')}
            />
            <InputField label="Address (optional)" type="text" maxLength={300} wide {...field('profile', 'address')} />
            <InputField
              label="Latitude"
              type="text"
              inputMode="decimal"
              hint="Where clock-ins are checked from."
              {...field('profile', 'latitude')}
            />
            <InputField label="Longitude" type="text" inputMode="decimal" {...field('profile', 'longitude')} />
          </div>
          <p class="hint">
            Slug <code>{b.slug}</code>: the business's name in public links, set when it was created.
          </p>
        </SectionForm>
      </Card>
      <div class="grid">
        <Card title="Clock-in rules">
          <SectionForm base={base} section="clock" idem={idem('clock')} label="Save the rules">
            <InputField
              label="Geofence radius (meters)"
              type="text"
              inputMode="numeric"
              hint="Clock-ins farther than this from the business are refused. Empty: no check."
              {...field('clock', 'geofence_radius_m')}
            />
            <Checkbox
              name="require_clock_photo"
              label="A photo is required to clock in and out"
              checked={values.require_clock_photo}
              error={err('clock', 'require_clock_photo')}
            />
          </SectionForm>
        </Card>
        <Card title="Weekly budget">
          <SectionForm base={base} section="budget" idem={idem('budget')} label="Save the budget">
            <InputField
              label={`Weekly labor budget (${b.currency})`}
              type="text"
              inputMode="decimal"
              hint="Labor costs are shown against it. Empty: no budget."
              {...field('budget', 'weekly_labor_budget')}
            />
          </SectionForm>
        </Card>
        <Card title="Auto-fill on cancel">
          <SectionForm base={base} section="autofill" idem={idem('autofill')} label="Save">
            <Checkbox
              name="auto_fill_on_cancel"
              label="When a shifter cancels, offer the shift to the crew at once"
              checked={values.auto_fill_on_cancel}
              error={err('autofill', 'auto_fill_on_cancel')}
            />
          </SectionForm>
        </Card>
        <Card title="Default business">
          {b.is_default ? (
            <p>This is your default business: the API and agents use it when no business is named.</p>
          ) : role === 'owner' ? (
            <form method="post" action={dashboardHref(base, `${SETTINGS}/default`)} class="stack">
              <p>The API and agents use your default business when no business is named.</p>
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton variant="secondary">Make it my default business</SubmitButton>
            </form>
          ) : (
            <p class="muted">Only the owner chooses their default business.</p>
          )}
        </Card>
      </div>
      <PartnersCard links={props.links} base={base} link={props.link} scopesForm={props.scopesForm} />
    </AppShell>
  );
}

async function loadSettings(c: Context<AppEnv>, base: DashboardBase) {
  const ctx = serviceCtx(c);
  const [got, links] = await Promise.all([
    getBusinessSettings(ctx, base.business!.id),
    listPartnerLinks(ctx, base.business!.id, { limit: 100 }),
  ]);
  return { business: got.business, role: got.role, links: links.data };
}

async function settingsBase(c: Context<AppEnv>): Promise<DashboardBase | null> {
  const base = await dashboardBase(c);
  return base.business ? base : null;
}

export async function renderSettings(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const data = await loadSettings(c, base);
  return renderPage(
    c,
    <SettingsView base={base} {...data} values={valuesOf(data.business)} notice={NOTICES[c.req.query('notice') ?? '']} />,
  );
}

/** A text field of the form as the schema takes it: empty is null for the nullable ones, numbers as numbers. */
function inputOf(section: Section, f: (name: string, max?: number) => string): Record<string, unknown> {
  const num = (name: string) => {
    const v = f(name, 40).trim();
    return v === '' ? null : Number(v.replace(/,/g, ''));
  };
  const flag = (name: string) => f(name, 1) === '1';
  switch (section) {
    case 'profile':
      return {
        name: f('name', 200),
        address: f('address', 400).trim() || null,
        latitude: num('latitude'),
        longitude: num('longitude'),
        timezone: f('timezone', 100).trim(),
      };
    case 'clock':
      return { geofence_radius_m: num('geofence_radius_m'), require_clock_photo: flag('require_clock_photo') };
    case 'budget':
      return { weekly_labor_budget: num('weekly_labor_budget') };
    case 'autofill':
      return { auto_fill_on_cancel: flag('auto_fill_on_cancel') };
  }
}

/** POST /dashboard/settings: one group of settings (`section`), through updateSettings. */
export async function postSettings(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  const f = await formFields(c);
  const section = (SECTIONS as readonly string[]).includes(f('section')) ? (f('section') as Section) : null;
  if (!section) return c.redirect(dashboardHref(base, SETTINGS), 303);
  const idem = f('_idem', 255);
  // What was typed in this form, kept as typed; the other forms show what is stored.
  const typed: Partial<Values> = {};
  for (const name of SECTION_FIELDS[section]) {
    if (name === 'require_clock_photo' || name === 'auto_fill_on_cancel') typed[name] = f(name, 1) === '1';
    else typed[name] = f(name, name === 'address' ? 400 : 200);
  }
  const again = async (status: ContentfulStatusCode, errors: Partial<Record<Field, string>>, error: string) => {
    const data = await loadSettings(c, base);
    return renderPage(
      c,
      <SettingsView
        base={base}
        {...data}
        values={{ ...valuesOf(data.business), ...typed }}
        refused={{ section, errors, idem }}
        error={error}
      />,
      status,
    );
  };
  const parsed = businessSettingsInput.safeParse({ business_id: base.business!.id, ...inputOf(section, f) });
  if (!parsed.success) {
    const errors: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '') as Field;
      if ((FIELDS as readonly string[]).includes(name)) errors[name] ??= FIELD_HELP[name];
    }
    return again(400, errors, 'Not saved: see the message beside the field.');
  }
  try {
    await updateSettings(serviceCtx(c), parsed.data);
  } catch (err) {
    const { errors, rest } = fieldErrorsOf(err, FIELDS, {});
    return again((err as AppError).status as ContentfulStatusCode, errors, rest ?? 'Not saved: see the message beside the field.');
  }
  return c.redirect(dashboardHref(base, SETTINGS, { notice: section }), 303);
}

/** POST /dashboard/settings/default: the owner's default business (makeDefaultBusiness). */
export async function postDefaultBusiness(c: Context<AppEnv>): Promise<Response> {
  const base = await settingsBase(c);
  if (!base) return c.redirect('/dashboard', 303);
  try {
    await makeDefaultBusiness(serviceCtx(c), base.business!.id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const data = await loadSettings(c, base);
    return renderPage(
      c,
      <SettingsView base={base} {...data} values={valuesOf(data.business)} error={err.message} />,
      err.status as ContentfulStatusCode,
    );
  }
  return c.redirect(dashboardHref(base, SETTINGS, { notice: 'default' }), 303);
}

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
