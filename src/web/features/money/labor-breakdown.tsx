/** The week's labor cost of /dashboard/money split by shifter and by role (two small tables). */

import type { LaborCosts } from '@/services/insights';

export function LaborBreakdown({ labor, fmt }: { labor: LaborCosts; fmt: (n: number) => string }) {
  return (
    <div class="grid">
      <div>
        <h3>By shifter</h3>
        {labor.by_shifter.length ? (
          <section class="table-wrap" tabindex={0} aria-labelledby="by-shifter-caption">
            <table class="compact">
              <caption class="visually-hidden" id="by-shifter-caption">
                This week's labor cost by shifter
              </caption>
              <thead>
                <tr>
                  <th scope="col">Shifter</th>
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
                {labor.by_shifter.map((r) => (
                  <tr>
                    <th scope="row">{r.shifter_name ?? 'Former shifter'}</th>
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
      <div>
        <h3>By role</h3>
        {labor.by_role.length ? (
          <section class="table-wrap" tabindex={0} aria-labelledby="by-role-caption">
            <table class="compact">
              <caption class="visually-hidden" id="by-role-caption">
                This week's labor cost by role
              </caption>
              <thead>
                <tr>
                  <th scope="col">Role</th>
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
                {labor.by_role.map((r) => (
                  <tr>
                    <th scope="row">{r.role ?? 'Other'}</th>
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
    </div>
  );
}
