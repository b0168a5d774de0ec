// The records page's mileage card: the year's trips with their totals and CSV, each trip's edit form, and the form to log one.
import type { MileageList } from '@/services/shifter-records';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton, TextField } from '@/web/components';
import type { DashboardBase } from '@/web/features/dashboard/context';
import { formatDate, formatMoney } from '@/web/format';
import { EditForm, type Errors, PATH, type Refused, type Typed } from './records-shared';

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

export function MileageCard({ base, list, refused }: { base: DashboardBase; list: MileageList; refused: Refused }) {
  const r = list.rollup;
  const isNew = refused.target === 'new';
  return (
    <Card title={`Mileage, ${r.year}`}>
      <p data-mileage-total>
        {`${r.entries} trip${r.entries === 1 ? '' : 's'} · ${r.total_miles} miles · ${formatMoney(r.total_amount, r.currency)}, each trip at the rate per mile of the day it was logged`}
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
                <strong>{formatDate(m.log_date)}</strong> {`· ${m.miles} mi · ${formatMoney(m.amount, m.currency)}`}
                {m.purpose ? <span class="muted">{` · ${m.purpose}`}</span> : null}
                <EditForm
                  summary={`Change or delete the trip of ${formatDate(m.log_date)}`}
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
