/** The week's labor cost of /dashboard/money split by shifter and by role (two small tables). */

import type { LaborCosts } from '@/services/insights';
import { SmallTable } from '@/web/table';

interface BreakdownRow {
  label: string;
  shifts: number;
  hours: number;
  total: number;
}

/** One of the two: a row per shifter or per role, with its shifts, hours and cost (the shared SmallTable). */
function BreakdownTable({ title, first, rows, fmt }: { title: string; first: string; rows: BreakdownRow[]; fmt: (n: number) => string }) {
  return (
    <div>
      <h3>{title}</h3>
      {rows.length ? (
        <SmallTable
          class="compact"
          caption={`This week's labor cost ${title.toLowerCase()}`}
          rows={rows}
          columns={[
            { head: first, cell: (r) => r.label, class: 'stack-name' },
            // With their units, as on the earnings pages: on a phone the row stacks without its headings.
            { head: 'Shifts', cell: (r) => `${r.shifts} shift${r.shifts === 1 ? '' : 's'}`, num: true },
            { head: 'Hours', cell: (r) => `${r.hours} h`, num: true },
            { head: 'Cost', cell: (r) => fmt(r.total), num: true, class: 'nowrap stack-end' },
          ]}
        />
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
        title="By shifter"
        first="Shifter"
        rows={labor.by_shifter.map((r) => ({ ...r, label: r.shifter_name ?? 'Former shifter' }))}
        fmt={fmt}
      />
      <BreakdownTable title="By role" first="Role" rows={labor.by_role.map((r) => ({ ...r, label: r.role ?? 'Other' }))} fmt={fmt} />
    </div>
  );
}
