// The tables of the copy-week page (copy-week.tsx): what will be made, what was made, and what is
// skipped with the service's words for why.
import type { CopiedShift, SkippedShift } from '@/services/templates';
import type { ShiftRequestView } from '@/services/shifts';
import { TableWrap } from '@/web/components';
import { formatDate, formatMoney, shiftHours } from '@/web/format';

/** Who a copied shift is for: the person asked, or the crew for an open shift. */
const who = (s: { shifter_name: string | null; is_broadcast: number }) =>
  s.is_broadcast ? 'Open to the crew' : (s.shifter_name ?? 'A shifter');

function Head({ cols }: { cols: string[] }) {
  return (
    <thead>
      <tr>
        {cols.map((c) => (
          <th scope="col">{c}</th>
        ))}
      </tr>
    </thead>
  );
}

/** The shifts a copy will make: date, times, role, who, and pay for the owner (who sees pay). */
export function ToMakeTable({ shifts, seesPay, caption }: { shifts: CopiedShift[]; seesPay: boolean; caption: string }) {
  return (
    <TableWrap label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <Head cols={['Date', 'Time', 'Role', 'Who', ...(seesPay ? ['Pay'] : [])]} />
        <tbody>
          {shifts.map((s) => (
            <tr>
              <td class="nowrap">{formatDate(s.shift_date)}</td>
              <td class="nowrap">{shiftHours(s.shift_in, s.shift_out)}</td>
              <td>{s.role ?? '—'}</td>
              <td>{who(s)}</td>
              {seesPay ? (
                <td class="nowrap">{`${formatMoney(s.scheduled_pay, s.currency)} (${formatMoney(s.hourly_rate, s.currency)}/h)`}</td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The shifts a copy made, each leading to its page. */
export function MadeTable({ shifts, href, caption }: { shifts: ShiftRequestView[]; href: (id: string) => string; caption: string }) {
  return (
    <TableWrap label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <Head cols={['Date', 'Time', 'Role', 'Who', 'Status']} />
        <tbody>
          {shifts.map((s) => (
            <tr>
              <td class="nowrap">
                <a href={href(s.id)}>{formatDate(s.shift_date)}</a>
              </td>
              <td class="nowrap">{shiftHours(s.shift_in, s.shift_out)}</td>
              <td>{s.role ?? '—'}</td>
              <td>{who(s)}</td>
              <td>
                <span class={`badge shift-badge shift-${s.state_words.tone}`}>{s.state_words.label}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The shifts left out, each with the service's reason in words. */
export function SkippedTable({ shifts, caption }: { shifts: SkippedShift[]; caption: string }) {
  return (
    <TableWrap label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <Head cols={['Date', 'Time', 'Role', 'Who', 'Why it is skipped']} />
        <tbody>
          {shifts.map((s) => (
            <tr>
              <td class="nowrap">{formatDate(s.shift_date)}</td>
              <td class="nowrap">{shiftHours(s.shift_in, s.shift_out)}</td>
              <td>{s.role ?? '—'}</td>
              <td>{who(s)}</td>
              <td>{s.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
