import { type Context, Hono } from 'hono';
import { WEB_ENTRIES } from '../../../../../generated/web/assets';
import type { AppEnv } from '../../../../http/app-types';
import { serviceCtx } from '../../../../http/create-app';
import { AppError } from '../../../../lib/errors';
import { getPayoutAccount, startPayoutOnboarding } from '../../../../services/payments';
import {
  type CredentialView,
  createCredential,
  createMileage,
  deleteMileage,
  listCounterRules,
  listCredentials,
  listMileage,
  type MileageList,
  updateMileage,
} from '../../../../services/shifter-records';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton, TextField } from '../../../components';
import { formatMoney } from '../../../format';
import { renderPage } from '../../../render';
import { type DashboardBase, dashboardBase } from '../../dashboard/context';
import { AppShell } from '../../dashboard/shell';

/**
 * The shifter's records ({app_url}/dashboard/shifter/records): mileage for taxes (add, change, delete,
 * the year's totals, a CSV of the year), credentials (add, with a PDF or image document up to 8 MB sent
 * through the credentials API by the `records` island; visibility and expiry flags), counter rules and
 * the payout account (status, onboarding link). The same services as /v1/shifter/{id}/….
 */
const PATH = '/dashboard/shifter/records';

type Errors = Record<string, string>;

function fieldErrors(err: AppError): Errors {
  const out: Errors = {};
  const details = Array.isArray(err.details) ? (err.details as Array<{ field?: string; message?: string }>) : [];
  for (const d of details) if (d.field) out[d.field.replace(/^.*\./, '')] = d.message ?? err.message;
  if (!Object.keys(out).length) out._ = err.message;
  return out;
}

const yearOf = (c: Context<AppEnv>) => {
  const y = Number(c.req.query('year'));
  return Number.isInteger(y) && y >= 2000 && y <= 2100 ? y : undefined;
};

function MileageCard({
  base,
  list,
  errors,
  typed,
}: {
  base: DashboardBase;
  list: MileageList;
  errors: Errors;
  typed: Record<string, string>;
}) {
  const r = list.rollup;
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
          {list.data.map((m) => (
            <li>
              <strong>{m.log_date}</strong> {`· ${m.miles} mi · ${formatMoney(m.amount, m.currency)}`}
              {m.purpose ? <span class="muted">{` · ${m.purpose}`}</span> : null}
              <details class="record-edit">
                <summary>{`Change or delete the trip of ${m.log_date}`}</summary>
                <form method="post" action={`${PATH}/mileage/${encodeURIComponent(m.id)}`} class="form-grid">
                  <CsrfField token={base.csrfToken} />
                  <IdempotencyField />
                  <InputField label="Date" name="log_date" type="date" value={m.log_date} required id={`mi-${m.id}-date`} />
                  <InputField
                    label="Miles"
                    name="miles"
                    type="number"
                    step={0.01}
                    min="0.01"
                    value={String(m.miles)}
                    required
                    id={`mi-${m.id}-miles`}
                  />
                  <TextField label="Purpose" name="purpose" value={m.purpose ?? ''} maxLength={500} id={`mi-${m.id}-purpose`} />
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
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No trip logged this year.</p>
      )}
      <h3>Log a trip</h3>
      {errors._ ? <p class="field-error">{errors._}</p> : null}
      <form method="post" action={`${PATH}/mileage`} class="form-grid">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <InputField label="Date" name="log_date" type="date" value={typed.log_date} required error={errors.log_date} />
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
        />
        <TextField
          label="Purpose"
          name="purpose"
          value={typed.purpose}
          maxLength={500}
          error={errors.purpose}
          hint="For example: to Harbor Street Bistro and back."
        />
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

function CredentialsCard({
  base,
  items,
  errors,
  typed,
}: {
  base: DashboardBase;
  items: CredentialView[];
  errors: Errors;
  typed: Record<string, string>;
}) {
  return (
    <Card title="Credentials">
      {items.length ? (
        <ul class="list-plain record-list" data-credentials>
          {items.map((cr) => (
            <li>
              <strong>{cr.label}</strong>
              {cr.issuer ? <span class="muted">{` · ${cr.issuer}`}</span> : null}
              {cr.expires_on ? <span class="muted">{` · expires ${cr.expires_on}`}</span> : null} <CredentialFlags cr={cr} />
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

async function renderRecords(
  c: Context<AppEnv>,
  opts: { mileage?: [Errors, Record<string, string>]; credential?: [Errors, Record<string, string>] } = {},
) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const [mileage, credentials, rules, payout] = await Promise.all([
    listMileage(ctx, base.shifterId, { year: yearOf(c), limit: 100 }),
    listCredentials(ctx, base.shifterId),
    listCounterRules(ctx, base.shifterId),
    getPayoutAccount(ctx, {}),
  ]);
  const island = WEB_ENTRIES.islands.records;
  const [mErr, mTyped] = opts.mileage ?? [{}, {}];
  const [cErr, cTyped] = opts.credential ?? [{}, {}];
  const failed = Boolean(opts.mileage || opts.credential);
  return renderPage(
    c,
    <AppShell
      base={base}
      side="shifter"
      current={PATH}
      title="Records"
      notice={failed ? undefined : c.req.query('notice')}
      error={failed ? 'Not saved: see the field below.' : undefined}
      scripts={island ? [island.js] : []}
    >
      <div class="grid records-grid">
        <MileageCard base={base} list={mileage} errors={mErr} typed={mTyped} />
        <CredentialsCard base={base} items={credentials.data} errors={cErr} typed={cTyped} />
        <Card title="Counter rules">
          {rules.data.length ? (
            <ul class="list-plain record-list">
              {rules.data.map((r) => (
                <li>
                  <strong>{r.label}</strong> {`· at least ${formatMoney(r.min_hourly_rate, r.currency)}/h`}
                  {r.is_active ? null : <span class="badge">Off</span>}
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">No counter rule: requests are shown at the rate the business offers.</p>
          )}
        </Card>
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
        </Card>
      </div>
    </AppShell>,
    failed ? 422 : 200,
  );
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export const records = new Hono<AppEnv>();
records.get('/', (c) => renderRecords(c));

records.post('/mileage', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const b = await c.req.parseBody();
  const typed = { log_date: text(b.log_date), miles: text(b.miles), purpose: text(b.purpose) };
  try {
    await createMileage(serviceCtx(c), base.shifterId, {
      log_date: typed.log_date,
      miles: Number(typed.miles),
      purpose: typed.purpose || null,
    });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return renderRecords(c, { mileage: [fieldErrors(err), typed] });
    throw err;
  }
  return c.redirect(`${PATH}?notice=${encodeURIComponent(`Trip of ${typed.miles} miles added.`)}`, 303);
});

records.post('/mileage/:entry', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const b = await c.req.parseBody();
  const id = c.req.param('entry');
  try {
    if (b.action === 'delete') await deleteMileage(serviceCtx(c), base.shifterId, id);
    else
      await updateMileage(serviceCtx(c), base.shifterId, id, {
        log_date: text(b.log_date),
        miles: Number(text(b.miles)),
        purpose: text(b.purpose) || null,
      });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return renderRecords(c, { mileage: [fieldErrors(err), {}] });
    throw err;
  }
  return c.redirect(`${PATH}?notice=${encodeURIComponent(b.action === 'delete' ? 'Trip deleted.' : 'Trip saved.')}`, 303);
});

/** The year's trips as CSV: one row a trip, then the totals (what a tax form asks for). */
records.get('/mileage.csv', async (c) => {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const list = await listMileage(serviceCtx(c), base.shifterId, { year: yearOf(c), limit: 100 });
  const all = [...list.data];
  let cursor = list.next_cursor;
  while (cursor) {
    const more = await listMileage(serviceCtx(c), base.shifterId, { year: list.rollup.year, limit: 100, cursor });
    all.push(...more.data);
    cursor = more.next_cursor;
  }
  // A cell that starts like a formula is quoted with a leading apostrophe (spreadsheets would run it).
  const cell = (v: string | number) => {
    const s = String(v);
    const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
    return /[",\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const rows = [
    ['date', 'miles', 'rate_cents_per_mile', 'amount', 'currency', 'purpose'],
    ...all
      .sort((a, b) => a.log_date.localeCompare(b.log_date))
      .map((m) => [m.log_date, m.miles, m.rate_per_mile_cents, m.amount.toFixed(2), m.currency, m.purpose ?? '']),
    ['total', list.rollup.total_miles, '', list.rollup.total_amount.toFixed(2), list.rollup.currency, `${list.rollup.entries} trips`],
  ];
  const body = `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
  return c.body(body, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="mileage-${list.rollup.year}.csv"`,
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
  try {
    await createCredential(serviceCtx(c), base.shifterId, {
      label: typed.label,
      ...(typed.issuer ? { issuer: typed.issuer } : {}),
      ...(typed.expires_on ? { expires_on: typed.expires_on } : {}),
      is_visible: typed.is_visible === '1',
    });
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return renderRecords(c, { credential: [fieldErrors(err), typed] });
    throw err;
  }
  return c.redirect(`${PATH}?notice=${encodeURIComponent(`Credential “${typed.label}” added.`)}`, 303);
});

records.post('/payout', async (c) => {
  const origin = new URL(c.req.url).origin;
  const link = await startPayoutOnboarding(serviceCtx(c), { refreshUrl: `${origin}${PATH}`, returnUrl: `${origin}${PATH}` });
  return c.redirect(link.url, 303);
});
