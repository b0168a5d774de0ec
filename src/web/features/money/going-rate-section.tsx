/**
 * The going rate of /dashboard/money: the median hourly rate of worked shifts for a role (or any)
 * in the business's city, state or country (`?rate_role=`, `?rate_place=`), read and shown.
 */

import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import type { BusinessView } from '@/services/accounts';
import { type GoingRate, goingRate } from '@/services/insights';
import type { ShiftRoleView } from '@/services/shifts';
import { SelectField, SubmitButton } from '@/web/components';
import { formatMoney } from '@/web/format';
import type { DashboardBase } from '@/web/features/dashboard/context';
import { MONEY, type MoneyQuery, type Place, PLACES } from './money-shared';

// ── Going rate ──────────────────────────────────────────────────────────────────────────────────

export interface RateView {
  rate: GoingRate | null;
  placeName: string;
  missing: string | null;
}

function placeLabels(cityName: string | null): Record<Place, string> {
  return { city: cityName ? `${cityName} (your city)` : 'Your city', state: 'Your state or region', country: 'Your country' };
}

export async function goingRateFor(
  c: Context<AppEnv>,
  q: MoneyQuery,
  business: BusinessView,
  currency: string,
  cityName: string | null,
): Promise<RateView> {
  const ids: Record<Place, number | null> = { city: business.city_id, state: business.state_id, country: business.country_id };
  const id = ids[q.ratePlace];
  const placeName = placeLabels(cityName)[q.ratePlace];
  if (id === null)
    return { rate: null, placeName, missing: 'The business has no place of that kind on record: choose another, or set its city.' };
  const where = q.ratePlace === 'city' ? { city_id: id } : q.ratePlace === 'state' ? { state_id: id } : { country_id: id };
  const rate = await goingRate(serviceCtx(c), { ...where, ...(q.rateRole ? { shiftrole_id: Number(q.rateRole) } : {}), currency });
  return { rate, placeName, missing: null };
}

export function GoingRateSection(props: {
  base: DashboardBase;
  q: MoneyQuery;
  roles: ShiftRoleView[];
  view: RateView;
  cityName: string | null;
}) {
  const { base, q, roles, view } = props;
  const r = view.rate;
  const cur = r?.currency ?? base.business?.currency ?? 'USD';
  const labels = placeLabels(props.cityName);
  const role = roles.find((x) => String(x.id) === q.rateRole);
  return (
    <section class="card" id="going-rate" aria-labelledby="going-rate-head">
      <h2 id="going-rate-head">Going rate</h2>
      <form method="get" action={`${MONEY}#going-rate`} class="inline-fields">
        {base.business ? <input type="hidden" name="business_id" value={base.business.id} /> : null}
        <SelectField
          label="Role"
          name="rate_role"
          id="field-rate_role"
          value={q.rateRole}
          options={[{ value: '', label: 'Any role' }, ...roles.map((x) => ({ value: String(x.id), label: x.label }))]}
        />
        <SelectField
          label="Place"
          name="rate_place"
          id="field-rate_place"
          value={q.ratePlace}
          options={PLACES.map((p) => ({ value: p, label: labels[p] }))}
        />
        <SubmitButton variant="secondary">Show the going rate</SubmitButton>
      </form>
      {view.missing ? (
        <p class="empty">{view.missing}</p>
      ) : r && r.median !== null ? (
        <>
          <p class="stat">{`${formatMoney(r.median, cur)} / h`}</p>
          <p class="stat-label">{`Median hourly rate · ${role ? role.label : 'any role'} · ${view.placeName} · worked shifts of the last ${r.window_days} days`}</p>
          <dl class="pairs">
            <dt>Middle half</dt>
            <dd>{r.p25 !== null && r.p75 !== null ? `${formatMoney(r.p25, cur)} to ${formatMoney(r.p75, cur)}` : '—'}</dd>
            <dt>Lowest and highest</dt>
            <dd>{r.min !== null && r.max !== null ? `${formatMoney(r.min, cur)} to ${formatMoney(r.max, cur)}` : '—'}</dd>
            <dt>Shifts counted</dt>
            <dd>{r.sufficient_data ? String(r.sample_size) : `${r.sample_size} (few: fewer than ${r.min_sample}, read it as a hint)`}</dd>
          </dl>
        </>
      ) : (
        <p class="empty">{`No worked shifts at this rate's place and role in the last ${r?.window_days ?? 90} days yet.`}</p>
      )}
    </section>
  );
}
