import { type DashboardBase, dashboardHref } from '../dashboard/context';

/**
 * The schedule's toolbar, above the calendar and the people view alike: the two ways to see the
 * week, then what can be done with it (its CSV, printing it). A plain list of links, so a link more
 * is one more item. Links marked `data-week-link` follow the week the calendar shows (the island sets
 * their `date`). The Print button is shown and wired by the pages' script (client-script.ts); without
 * script the browser's own Print command prints the same page.
 */
export function ScheduleToolbar({ base, date, people }: { base: DashboardBase; date: string; people: boolean }) {
  const href = (path: string, query: Record<string, string> = {}) => dashboardHref(base, path, { date, ...query });
  return (
    <nav class="schedule-toolbar" aria-label="Schedule: views and the week">
      <ul class="actions">
        <li>
          <a href={href('/dashboard/schedule')} data-week-link aria-current={people ? undefined : 'page'}>
            Calendar
          </a>
        </li>
        <li>
          <a href={href('/dashboard/schedule', { view: 'people' })} data-week-link aria-current={people ? 'page' : undefined}>
            People
          </a>
        </li>
        <li>
          <a href={href('/dashboard/schedule/week.csv')} data-week-link download>
            Download the week (CSV)
          </a>
        </li>
        <li>
          <a href={href('/dashboard/schedule/copy-week')} data-week-link>
            Copy last week
          </a>
        </li>
        <li>
          <button type="button" class="button button-secondary" data-print hidden>
            Print
          </button>
        </li>
      </ul>
    </nav>
  );
}
