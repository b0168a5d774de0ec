/** The week's labor cost of /dashboard/money split by shifter and by role (two small tables). */

import type { LaborCosts } from '@/services/insights';

interface BreakdownRow {
  label: string;
  shifts: number;
  hours: number;
  total: number;
}

/** One of the two tables: a row per shifter or per role, with its shifts, hours and cost. */
function BreakdownTable({
  id,
  title,
  first,
  rows,
  fmt,
}: {
  id: string;
  title: string;
  first: string;
  rows: BreakdownRow[];
  fmt: (n: number) => string;
}) {
  return (
    <div>
      <h3>{title}</h3>
      {rows.length ? (
        <section class="table-wrap" tabindex={0} aria-labelledby={`${id}-caption`}>
          <table class="compact">
            <caption class="visually-hidden" id={`${id}-caption`}>
              {`This week's labor cost ${title.toLowerCase()}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">{first}</th>
                <th scope="col" class="num">
                  Shifts
                </th>
                <th scope="col" class="num">
                  Hours
                </th>
                <th scope="col" class="num">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <th scope="row">{r.label}</th>
                  <td class="num">{r.shifts}</td>
                  <td class="num">{r.hours}</td>
                  <td class="num nowrap">{fmt(r.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : (
        <p class="empty">No worked shifts this week.</p>
      )}
    </div>
  );
}

export function LaborBreakdown({ labor, fmt }: { labor: LaborCosts; fmt: (n: number) => string }) {
  return (
    <div class="grid">
      <BreakdownTable
        id="by-shifter"
        title="By shifter"
        first="Shifter"
        rows={labor.by_shifter.map((r) => ({ ...r, label: r.shifter_name ?? 'Former shifter' }))}
        fmt={fmt}
      />
      <BreakdownTable
        id="by-role"
        title="By role"
        first="Role"
        rows={labor.by_role.map((r) => ({ ...r, label: r.role ?? 'Other' }))}
        fmt={fmt}
      />
    </div>
  );
}
