import type { Child } from 'hono/jsx';

/** One column of a SmallTable: its heading and what each row shows in it. */
export interface TableColumn<R> {
  head: string;
  cell: (row: R) => Child;
  /** Figures: right-aligned, tabular digits (the heading too). */
  num?: boolean;
  /** More classes of the column's cells: `stack-name` (a name that may wrap), `stack-end` (the amount ending the row on a phone). */
  class?: string;
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/**
 * A small table: one row per thing, headed by its first column (a shifter, a role, a week, a
 * business), then a few figures. The money page's labor by shifter and by role and the shifter's
 * earnings (by shift, by week, by business) are this one table. On a phone each row stacks into a
 * block, its heading on a line and the figures under it, the row's amount at its end
 * (`.stack-table`, styles/components.css), so nothing scrolls sideways; the caption names the table
 * for a screen reader. `rowAttrs` gives a row's attributes (`data-*`, `aria-current`), in order.
 */
export function SmallTable<R>({
  caption,
  class: extra,
  columns,
  rows,
  rowAttrs,
}: {
  caption: string;
  /** The table's own class besides `stack-table` (its tests and CSS find it by it). */
  class?: string;
  columns: readonly [TableColumn<R>, ...TableColumn<R>[]];
  rows: readonly R[];
  rowAttrs?: (row: R) => Record<string, string | undefined>;
}) {
  const [head, ...figures] = columns;
  return (
    <table class={classes('stack-table', extra)}>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" class={c.num ? 'num' : undefined}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr {...rowAttrs?.(r)}>
            <th scope="row" class={classes(head.num && 'num', head.class)}>
              {head.cell(r)}
            </th>
            {figures.map((c) => (
              <td class={classes(c.num && 'num', c.class)}>{c.cell(r)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
