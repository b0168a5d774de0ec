import { type Context, Hono } from 'hono';
import type { Child } from 'hono/jsx';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { getPayoutAccount, listPayouts, type PayoutRow, type PayoutState, startPayoutOnboarding } from '@/services/payments';
import {
  type CounterRuleView,
  type CredentialView,
  createCounterRule,
  createCounterRuleInput,
  createCredential,
  createCredentialInput,
  createMileage,
  createMileageInput,
  deleteCounterRule,
  deleteCredential,
  deleteMileage,
  listCounterRules,
  listCredentials,
  listMileage,
  mileageCsvOfYear,
  type MileageList,
  updateCounterRule,
  updateCounterRuleInput,
  updateCredential,
  updateMileage,
  updateMileageInput,
} from '@/services/shifter-records';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton, TextField } from '@/web/components';
import { formatDate, formatMoney } from '@/web/format';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { AppShell } from '../dashboard/shell';

/**
 * The shifter's records ({app_url}/dashboard/shifter/records): mileage for taxes (add, change, delete,
 * the year's totals, a CSV of the year), credentials (add, with a PDF or image document up to 8 MB sent
 * through the credentials API by the `records` island; visibility changed, deleted; expiry flags),
 * counter rules (add, change, delete) and the payout account (status, onboarding link, the latest
 * payouts with their state). The same services as /v1/shifter/{id}/…; forms are read with the API's
 * own schemas, so a refusal says the same thing here.
 */
const PATH = '/dashboard/shifter/records';

type Errors = Record<string, string>;
type Typed = Record<string, string>;

/** A refused form: the messages by field, what was typed, and which form (an entry's id, or `new`). */
interface Refused {
  errors: Errors;
  typed: Typed;
  target: string;
}

const NONE: Refused = { errors: {}, typed: {}, target: '' };

function fieldErrors(err: AppError): Errors {
  const out: Errors = {};
  const details = Array.isArray(err.details) ? (err.details as Array<{ field?: string; message?: string }>) : [];
  for (const d of details) if (d.field) out[d.field.replace(/^.*\./, '')] = d.message ?? err.message;
  if (!Object.keys(out).length) out._ = err.message;
  return out;
}

/** A schema's refusal of a form as messages by field (the first for each). */
function schemaErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const out: Errors = {};
  for (const i of issues) {
    const field = String(i.path[0] ?? '_');
    out[field] ??= i.message;
  }
  return out;
}

const yearOf = (c: Context<AppEnv>) => {
  const y = Number(c.req.query('year'));
  return Number.isInteger(y) && y >= 2000 && y <= 2100 ? y : undefined;
};

/** A number typed in a form: empty is absent (the schema then says it is required), anything else is read as typed. */
const numberOf = (v: string) => (v === '' ? undefined : Number(v));

/** A listed record's own form, folded under its summary: its fields, then Save and Delete (the `action` the handler reads). */
function EditForm(p: { summary: string; action: string; csrfToken: string; open: boolean; error: string | undefined; children: Child }) {
  return (
    <details class="record-edit" open={p.open}>
      <summary>{p.summary}</summary>
      <form method="post" action={p.action} class="form-grid">
        <CsrfField token={p.csrfToken} />
        <IdempotencyField />
        {p.error ? <p class="field-error">{p.error}</p> : null}
        {p.children}
        <div class="form-actions">
          <SubmitButton name="action" value="save">
            Save
          </SubmitButton>
          <SubmitButton name="action" value="delete" variant="danger">
            Delete
          </SubmitButton>
        </div>
      </form>
    </details>
  );
}

function MileageFields({ id, typed, errors }: { id: string; typed: Typed; errors: Errors }) {
  return (
    <>
      <InputField label="Date" name="log_date" type="date" value={typed.log_date} required error={errors.log_date} id={`${id}-date`} />
      <InputField
        label="Miles"
        name="miles"
        type="number"
        step={0.01}
        min="0.01"
        inputMode="decimal"
        value={typed.miles}
        required
        error={errors.miles}
        id={`${id}-miles`}
      />
      <TextField
        label="Purpose"
        name="purpose"
        value={typed.purpose}
        maxLength={500}
        error={errors.purpose}
        id={`${id}-purpose`}
        hint={id === 'mi-new' ? 'For example: to Harbor Street Bistro and back.' : undefined}
      />
    </>
  );
}

function MileageCard({ base, list, refused }: { base: DashboardBase; list: MileageList; refused: Refused }) {
  const r = list.rollup;
  const isNew = refused.target === 'new';
  return (
    <Card title={`Mileage, ${r.year}`}>
      <p data-mileage-total>
        {`${r.entries} trip${r.entries === 1 ? '' : 's'} · ${r.total_miles} miles · ${formatMoney(r.total_amount, r.currency)} at the captured rates`}
      </p>
      <p>
        <a href={`${PATH}/mileage.csv?year=${r.year}`} download>
          {`Download ${r.year} as CSV (for taxes)`}
        </a>
      </p>
      {list.data.length ? (
        <ul class="list-plain record-list">
          {list.data.map((m) => {
            const mine = refused.target === m.id;
            const typed = mine ? refused.typed : { log_date: m.log_date, miles: String(m.miles), purpose: m.purpose ?? '' };
            return (
              <li>
                <strong>{m.log_date}</strong> {`· ${m.miles} mi · ${formatMoney(m.amount, m.currency)}`}
                {m.purpose ? <span class="muted">{` · ${m.purpose}`}</span> : null}
                <EditForm
                  summary={`Change or delete the trip of ${m.log_date}`}
                  action={`${PATH}/mileage/${encodeURIComponent(m.id)}`}
                  csrfToken={base.csrfToken}
                  open={mine}
                  error={mine ? refused.errors._ : undefined}
                >
                  <MileageFields id={`mi-${m.id}`} typed={typed} errors={mine ? refused.errors : {}} />
                </EditForm>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="empty">No trip logged this year.</p>
      )}
      <h3>Log a trip</h3>
      {isNew && refused.errors._ ? <p class="field-error">{refused.errors._}</p> : null}
      <form method="post" action={`${PATH}/mileage`} class="form-grid">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <MileageFields id="mi-new" typed={isNew ? refused.typed : {}} errors={isNew ? refused.errors : {}} />
        <SubmitButton>Add trip</SubmitButton>
      </form>
    </Card>
  );
}

function CredentialFlags({ cr }: { cr: CredentialView }) {
  return (
    <>
      {cr.expired ? <span class="badge badge-warn">Expired</span> : cr.expiring ? <span class="badge badge-warn">Expires soon</span> : null}
      <span class="badge">{cr.is_visible ? 'Visible to businesses' : 'Only you'}</span>
      {cr.has_document ? <span class="badge">{cr.document_type === 'application/pdf' ? 'PDF' : 'Image'}</span> : null}
    </>
  );
}

function CredentialsCard({ base, items, refused }: { base: DashboardBase; items: CredentialView[]; refused: Refused }) {
  const isNew = refused.target === 'new';
  const errors = isNew ? refused.errors : {};
  const typed = isNew ? refused.typed : {};
  return (
    <Card title="Credentials">
      {items.length ? (
        <ul class="list-plain record-list" data-credentials>
          {items.map((cr) => (
            <li>
              <strong>{cr.label}</strong>
              {cr.issuer ? <span class="muted">{` · ${cr.issuer}`}</span> : null}
              {cr.expires_on ? <span class="muted">{` · expires ${cr.expires_on}`}</span> : null} <CredentialFlags cr={cr} />
              {refused.target === cr.id && refused.errors._ ? <p class="field-error">{refused.errors._}</p> : null}
              <form method="post" action={`${PATH}/credentials/${encodeURIComponent(cr.id)}`} class="record-actions">
                <CsrfField token={base.csrfToken} />
                <IdempotencyField />
                <button type="submit" class="button button-secondary" name="action" value={cr.is_visible ? 'hide' : 'show'}>
                  {cr.is_visible ? 'Hide from businesses' : 'Show to businesses'}
                  <span class="visually-hidden">{`: ${cr.label}`}</span>
                </button>
                <button type="submit" class="button button-danger" name="action" value="delete">
                  Delete<span class="visually-hidden">{` ${cr.label}`}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No credential yet: a food handler card, a license, a certificate.</p>
      )}
      <h3>Add a credential</h3>
      {errors._ ? <p class="field-error">{errors._}</p> : null}
      <form
        method="post"
        action={`${PATH}/credentials`}
        class="form-grid"
        data-island="records"
        data-props={JSON.stringify({ shifterId: base.shifterId })}
      >
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <TextField label="Name" name="label" value={typed.label} required maxLength={120} error={errors.label} />
        <TextField label="Issuer" name="issuer" value={typed.issuer} maxLength={200} error={errors.issuer} />
        <InputField label="Expires on" name="expires_on" type="date" value={typed.expires_on} error={errors.expires_on} />
        <div class="field">
          <label for="credential-document">Document (PDF or image, up to 8 MB)</label>
          <input
            id="credential-document"
            type="file"
            accept="application/pdf,image/*"
            data-document
            aria-describedby="credential-document-hint"
          />
          <p class="hint" id="credential-document-hint">
            Sent with the credential when script is on; add it later otherwise.
          </p>
        </div>
        <div class="choice">
          <input type="checkbox" id="credential-visible" name="is_visible" value="1" checked={typed.is_visible !== '0'} />
          <label for="credential-visible">Businesses I work with may see it</label>
        </div>
        <p class="form-status" data-status role="status" aria-live="polite" />
        <SubmitButton>Add credential</SubmitButton>
      </form>
    </Card>
  );
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

function ruleTyped(r: CounterRuleView): Typed {
  return {
    label: r.label,
    min_hourly_rate: String(r.min_hourly_rate),
    start_from: r.start_from ?? '',
    start_to: r.start_to ?? '',
    weekdays: (r.weekdays ?? []).join(','),
    is_active: r.is_active ? '1' : '0',
  };
}

function RuleFields({ id, typed, errors, currency }: { id: string; typed: Typed; errors: Errors; currency: string }) {
  const days = new Set((typed.weekdays ?? '').split(',').filter(Boolean));
  return (
    <>
      <TextField label="Name" name="label" value={typed.label} required maxLength={120} error={errors.label} id={`${id}-label`} />
      <InputField
        label={`Least per hour (${currency})`}
        name="min_hourly_rate"
        type="number"
        step={0.01}
        min="0.01"
        inputMode="decimal"
        value={typed.min_hourly_rate}
        required
        error={errors.min_hourly_rate}
        id={`${id}-rate`}
      />
      <InputField
        label="Shifts starting from"
        name="start_from"
        type="time"
        value={typed.start_from}
        error={errors.start_from}
        id={`${id}-from`}
        hint="With “until”, or leave both empty for any time."
      />
      <InputField label="Until" name="start_to" type="time" value={typed.start_to} error={errors.start_to} id={`${id}-to`} />
      <fieldset class="fieldset rule-days">
        <legend>Days (none: any day)</legend>
        {WEEKDAYS.map((d, i) => (
          <span class="choice">
            <input type="checkbox" id={`${id}-day-${i + 1}`} name="weekdays" value={String(i + 1)} checked={days.has(String(i + 1))} />
            <label for={`${id}-day-${i + 1}`}>{d}</label>
          </span>
        ))}
        {errors.weekdays ? <p class="field-error">{errors.weekdays}</p> : null}
      </fieldset>
      <div class="choice">
        <input type="checkbox" id={`${id}-active`} name="is_active" value="1" checked={typed.is_active !== '0'} />
        <label for={`${id}-active`}>On: suggest this rate on requests it matches</label>
      </div>
    </>
  );
}

function RulesCard({
  base,
  rules,
  currency,
  refused,
}: {
  base: DashboardBase;
  rules: CounterRuleView[];
  currency: string;
  refused: Refused;
}) {
  const isNew = refused.target === 'new';
  return (
    <Card title="Counter rules">
      {rules.length ? (
        <ul class="list-plain record-list" data-rules>
          {rules.map((r) => {
            const mine = refused.target === r.id;
            return (
              <li>
                <strong>{r.label}</strong> {`· at least ${formatMoney(r.min_hourly_rate, r.currency)}/h`}
                {r.start_from && r.start_to ? <span class="muted">{` · starting ${r.start_from}–${r.start_to}`}</span> : null}
                {r.weekdays?.length ? <span class="muted">{` · ${r.weekdays.map((d) => WEEKDAYS[d - 1]).join(', ')}`}</span> : null}{' '}
                {r.is_active ? null : <span class="badge">Off</span>}
                <EditForm
                  summary={`Change or delete the rule “${r.label}”`}
                  action={`${PATH}/rules/${encodeURIComponent(r.id)}`}
                  csrfToken={base.csrfToken}
                  open={mine}
                  error={mine ? refused.errors._ : undefined}
                >
                  <RuleFields
                    id={`rule-${r.id}`}
                    typed={mine ? refused.typed : ruleTyped(r)}
                    errors={mine ? refused.errors : {}}
                    currency={r.currency}
                  />
                </EditForm>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="empty">No counter rule: requests are shown at the rate the business offers.</p>
      )}
      <details class="record-edit" open={isNew}>
        <summary>Add a counter rule</summary>
        {isNew && refused.errors._ ? <p class="field-error">{refused.errors._}</p> : null}
        <form method="post" action={`${PATH}/rules`} class="form-grid">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <RuleFields id="rule-new" typed={isNew ? refused.typed : {}} errors={isNew ? refused.errors : {}} currency={currency} />
          <SubmitButton>Add rule</SubmitButton>
        </form>
      </details>
    </Card>
  );
}

const PAYOUT_STATES: Record<PayoutState, { label: string; kind: string }> = {
  sent: { label: 'Sent', kind: 'badge-ok' },
  waiting: { label: 'Waiting for your payout account', kind: 'badge-warn' },
  invoiced: { label: 'Not paid by the business yet', kind: '' },
  refunded: { label: 'Refunded', kind: '' },
};

function PayoutList({ rows }: { rows: PayoutRow[] }) {
  if (!rows.length) return <p class="empty">No payout yet: your share of a worked shift shows here once it is invoiced.</p>;
  return (
    <ul class="list-plain record-list" data-payouts>
      {rows.map((p) => {
        const s = PAYOUT_STATES[p.state];
        return (
          <li data-state={p.state}>
            <strong>{formatMoney(p.amount, p.currency)}</strong>
            {` · ${p.business_name} · ${formatDate(p.shift_date)} `}
            <span class={`badge ${s.kind}`.trim()}>{s.label}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The page's notices, by the key in `?notice=` (the forms' redirects and the records island): the address picks one, never writes one. */
const NOTICES: Record<string, string> = {
  trip_added: 'Trip added.',
  trip_saved: 'Trip saved.',
  trip_deleted: 'Trip deleted.',
  credential_added: 'Credential added.',
  credential_added_with_document: 'Credential added with its document.',
  credential_deleted: 'Credential deleted.',
  credential_shown: 'The credential is visible to businesses you work with.',
  credential_hidden: 'The credential is now seen by you alone.',
  rule_added: 'Counter rule added.',
  rule_saved: 'Counter rule saved.',
  rule_deleted: 'Counter rule deleted.',
};

async function renderRecords(
  c: Context<AppEnv>,
  opts: { mileage?: Refused; credential?: Refused; rule?: Refused; status?: 400 | 403 | 404 | 409 | 422 | 429 } = {},
) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const [mileage, credentials, rules, payout, payouts] = await Promise.all([
    listMileage(ctx, base.shifterId, { year: yearOf(c), limit: 100 }),
    listCredentials(ctx, base.shifterId),
    listCounterRules(ctx, base.shifterId),
    getPayoutAccount(ctx, {}),
    listPayouts(ctx),
  ]);
  const island = WEB_ENTRIES.islands.records;
  const failed = Boolean(opts.mileage || opts.credential || opts.rule);
  return renderPage(
    c,
    <AppShell
      base={base}
      side="shifter"
      current={PATH}
      title="Records"
      notice={failed ? undefined : NOTICES[c.req.query('notice') ?? '']}
      error={failed ? 'Not saved: see the form below.' : undefined}
      scripts={island ? [island.js] : []}
    >
      <div class="grid records-grid">
        <MileageCard base={base} list={mileage} refused={opts.mileage ?? NONE} />
        <CredentialsCard base={base} items={credentials.data} refused={opts.credential ?? NONE} />
        <RulesCard base={base} rules={rules.data} currency={mileage.rollup.currency} refused={opts.rule ?? NONE} />
        <Card title="Payout account">
          <p data-payout-status>
            {!payout.set_up
              ? 'Not set up: set it up to be paid for your shifts.'
              : payout.payouts_enabled
                ? 'Ready: payouts are enabled.'
                : payout.details_submitted
                  ? 'Details sent: waiting for the processor to enable payouts.'
                  : 'Started: finish the onboarding to be paid.'}
          </p>
          {payout.payouts_enabled ? null : (
            <form method="post" action={`${PATH}/payout`}>
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton variant="secondary">{payout.set_up ? 'Continue onboarding' : 'Set up payouts'}</SubmitButton>
            </form>
          )}
          <h3>Latest payouts</h3>
          <PayoutList rows={payouts} />
        </Card>
      </div>
    </AppShell>,
    opts.status ?? (failed ? 422 : 200),
  );
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
type RefusalStatus = 400 | 403 | 404 | 409 | 422 | 429;

/** A service's refusal as the page's: its status (a client error only) and its messages by field. */
function refusedBy(err: unknown, typed: Typed, target: string): { refused: Refused; status: RefusalStatus } {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  const status = ([400, 403, 404, 409, 429] as const).find((s) => s === err.status) ?? 422;
  return { refused: { errors: fieldErrors(err), typed, target }, status };
}

export const records = new Hono<AppEnv>();
records.get('/', (c) => renderRecords(c));

/** A trip's form as its input (adding and changing read the same fields). */
async function mileageForm(c: Context<AppEnv>) {
  const b = await c.req.parseBody();
  const typed = { log_date: text(b.log_date), miles: text(b.miles), purpose: text(b.purpose) };
  const input = { log_date: typed.log_date, miles: numberOf(typed.miles), purpose: typed.purpose || null };
  return { action: text(b.action), typed, input };
}

records.post('/mileage', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { typed, input } = await mileageForm(c);
  const parsed = createMileageInput.safeParse(input);
  if (!parsed.success)
    return renderRecords(c, { mileage: { errors: schemaErrors(parsed.error.issues), typed, target: 'new' }, status: 400 });
  try {
    await createMileage(serviceCtx(c), base.shifterId, parsed.data);
  } catch (err) {
    const r = refusedBy(err, typed, 'new');
    return renderRecords(c, { mileage: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=trip_added`, 303);
});

records.post('/mileage/:entry', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const id = c.req.param('entry');
  const { action, typed, input } = await mileageForm(c);
  try {
    if (action === 'delete') await deleteMileage(serviceCtx(c), base.shifterId, id);
    else {
      const parsed = updateMileageInput.safeParse(input);
      if (!parsed.success)
        return renderRecords(c, { mileage: { errors: schemaErrors(parsed.error.issues), typed, target: id }, status: 400 });
      await updateMileage(serviceCtx(c), base.shifterId, id, parsed.data);
    }
  } catch (err) {
    const r = refusedBy(err, typed, id);
    return renderRecords(c, { mileage: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=${action === 'delete' ? 'trip_deleted' : 'trip_saved'}`, 303);
});
/** The year's trips as CSV: one row a trip, then the totals (services/shifter-records/mileage-csv.ts). */
records.get('/mileage.csv', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { year, csv } = await mileageCsvOfYear(serviceCtx(c), base.shifterId, yearOf(c));
  return c.body(csv, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="mileage-${year}.csv"`,
    'Cache-Control': 'no-store',
  });
});

records.post('/credentials', async (c) => {
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
});

/** A credential's visibility (show, hide) or its removal, with its document. */
records.post('/credentials/:credential', async (c) => {
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
});

/** A counter rule's form as its input: empty times and no day checked mean any time, any day. */
async function ruleForm(c: Context<AppEnv>) {
  const b = await c.req.parseBody({ all: true });
  const one = (k: string) => text(Array.isArray(b[k]) ? b[k][0] : b[k]);
  const days = ([] as unknown[])
    .concat(b.weekdays ?? [])
    .map(text)
    .filter(Boolean);
  const typed: Typed = {
    label: one('label'),
    min_hourly_rate: one('min_hourly_rate'),
    start_from: one('start_from'),
    start_to: one('start_to'),
    weekdays: days.join(','),
    is_active: one('is_active') === '1' ? '1' : '0',
  };
  const input = {
    label: typed.label,
    min_hourly_rate: numberOf(typed.min_hourly_rate!),
    start_from: typed.start_from || null,
    start_to: typed.start_to || null,
    weekdays: days.length ? days.join(',') : null,
    is_active: typed.is_active === '1',
  };
  return { action: one('action'), typed, input };
}

records.post('/rules', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const { typed, input } = await ruleForm(c);
  const parsed = createCounterRuleInput.safeParse(input);
  if (!parsed.success) return renderRecords(c, { rule: { errors: schemaErrors(parsed.error.issues), typed, target: 'new' }, status: 400 });
  try {
    await createCounterRule(serviceCtx(c), base.shifterId, parsed.data);
  } catch (err) {
    const r = refusedBy(err, typed, 'new');
    return renderRecords(c, { rule: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=rule_added`, 303);
});

records.post('/rules/:rule', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const id = c.req.param('rule');
  const { action, typed, input } = await ruleForm(c);
  try {
    if (action === 'delete') await deleteCounterRule(serviceCtx(c), base.shifterId, id);
    else {
      const parsed = updateCounterRuleInput.safeParse(input);
      if (!parsed.success) return renderRecords(c, { rule: { errors: schemaErrors(parsed.error.issues), typed, target: id }, status: 400 });
      await updateCounterRule(serviceCtx(c), base.shifterId, id, parsed.data);
    }
  } catch (err) {
    const r = refusedBy(err, typed, id);
    return renderRecords(c, { rule: r.refused, status: r.status });
  }
  return c.redirect(`${PATH}?notice=${action === 'delete' ? 'rule_deleted' : 'rule_saved'}`, 303);
});

records.post('/payout', async (c) => {
  const origin = new URL(c.req.url).origin;
  const link = await startPayoutOnboarding(serviceCtx(c), { refreshUrl: `${origin}${PATH}`, returnUrl: `${origin}${PATH}` });
  return c.redirect(link.url, 303);
});
