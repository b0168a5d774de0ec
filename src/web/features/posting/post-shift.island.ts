import { client, money, read, send } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';
import { rateProblem, type ShiftInputBounds } from './shift-rows.model';

/**
 * The post-a-shift form, enhanced: the shifter field shows only when asking one shifter, the going
 * rate beside the rate follows the chosen role, the rate is checked against the service's bounds as
 * soon as it is typed, and a targeted shift's conflicts are shown as soon as the shifter and the
 * time are chosen (the server checks everything again when the form is sent).
 */
interface Props {
  businessId: string;
  cityId: number | null;
  currency: string;
  /** The service's shift input bounds (services/shifts SHIFT_INPUT_BOUNDS). */
  bounds: ShiftInputBounds;
}

eachIsland<Props>('post-shift', (form, props) => {
  const field = <T extends HTMLElement>(name: string) => form.querySelector<T>(`[name="${name}"]`);
  const shifter = field<HTMLSelectElement>('shifter_id');
  const role = field<HTMLSelectElement>('shiftrole_id');
  const rateHint = form.querySelector<HTMLElement>('[data-going-rate]');
  const live = form.querySelector<HTMLElement>('#conflicts-live');
  const mode = () => form.querySelector<HTMLInputElement>('input[name="mode"]:checked');

  const syncMode = () => {
    const targeted = mode()?.value === 'targeted';
    const wrap = shifter?.closest<HTMLElement>('.field');
    if (wrap) wrap.hidden = !targeted;
    if (!targeted && live) live.textContent = '';
  };

  const showRate = async () => {
    if (!rateHint) return;
    if (!role?.value) {
      rateHint.textContent = 'Choose a role to see the going rate in your city.';
      return;
    }
    if (props.cityId === null) return;
    const r = await send(
      client.v1.going_rate.$get({ query: { city_id: String(props.cityId), shiftrole_id: role.value, currency: props.currency } }),
    );
    if (!r.ok || r.data.median === null) {
      rateHint.textContent = 'No going rate for this role in your city yet.';
      return;
    }
    const range =
      r.data.p25 !== null && r.data.p75 !== null
        ? `, middle half ${money(r.data.p25, props.currency)}–${money(r.data.p75, props.currency)}`
        : '';
    rateHint.textContent = `Going rate here: median ${money(r.data.median, props.currency)}${range}${r.data.sufficient_data ? '' : ' (few shifts yet)'}.`;
  };

  /** The rate's message under its field (the one the server writes on a refusal, or a new one). */
  const checkRate = () => {
    const input = field<HTMLInputElement>('hourly_rate');
    if (!input || input.value === '') return;
    const problem = rateProblem(input.value, props.bounds);
    const errorId = `${input.id}-error`;
    let error = form.querySelector<HTMLElement>(`#${errorId}`);
    if (!error && problem) {
      error = document.createElement('p');
      error.className = 'field-error';
      error.id = errorId;
      input.closest('.field')?.append(error);
    }
    if (error) {
      error.hidden = problem === null;
      error.textContent = problem ?? '';
    }
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== errorId);
    if (problem) described.push(errorId);
    if (described.length) input.setAttribute('aria-describedby', described.join(' '));
    else input.removeAttribute('aria-describedby');
    if (problem) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };

  let pending: AbortController | null = null;
  const checkConflicts = async () => {
    if (!live || mode()?.value !== 'targeted' || !shifter?.value) return;
    const date = field<HTMLInputElement>('shift_date')?.value;
    const shiftIn = field<HTMLInputElement>('shift_in')?.value;
    const shiftOut = field<HTMLInputElement>('shift_out')?.value;
    if (!date || !shiftIn || !shiftOut) return;
    pending?.abort();
    pending = new AbortController();
    const r = await send(
      client.v1.shift_request.conflicts.$get(
        { query: { shifter_id: shifter.value, date, shift_in: shiftIn, shift_out: shiftOut, business_id: props.businessId } },
        read(pending.signal),
      ),
    );
    if (!r.ok) return;
    const n = r.data.data.length + r.data.busy.length;
    live.textContent = n
      ? `Heads up: this shifter already works ${n === 1 ? 'a shift' : `${n} shifts`} at that time (${r.data.data
          .map((s) => `${s.shift_date} ${s.shift_in}–${s.shift_out}`)
          .concat(r.data.busy.length ? ['another business'] : [])
          .join('; ')}).`
      : 'No conflict for this shifter at that time.';
  };

  form.addEventListener('change', (e) => {
    const name = (e.target as HTMLInputElement).name;
    if (name === 'mode') syncMode();
    if (name === 'shiftrole_id') void showRate();
    if (name === 'hourly_rate') checkRate();
    if (['mode', 'shifter_id', 'shift_date', 'shift_in', 'shift_out'].includes(name)) void checkConflicts();
  });
  syncMode();
});
