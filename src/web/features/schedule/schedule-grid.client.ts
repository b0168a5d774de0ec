import {
  fittedHours,
  type GridPoint,
  type HourSpan,
  hoursSpanText,
  inRange,
  minuteAt,
  type ScheduleShift,
  WHOLE_DAY,
} from './schedule.model';

/**
 * What the schedule's island reads off FullCalendar's time grid: the point of the grid under the
 * pointer (its column's date and the minute of the day there, not rounded), so a drag's landing is
 * computed from the pointer's own travel (schedule.model.ts `droppedShift`) rather than from the
 * quarter hours the calendar's hit test floors it to.
 */

/** The viewport point of a mouse, pointer or touch event (the touch that ended, for a touchend); null for anything else. */
export function pointOf(ev: Event | undefined): { x: number; y: number } | null {
  if (!ev) return null;
  if ('changedTouches' in ev) {
    const t = (ev as TouchEvent).changedTouches[0];
    return t ? { x: t.clientX, y: t.clientY } : null;
  }
  if ('clientX' in ev) {
    const m = ev as MouseEvent;
    return { x: m.clientX, y: m.clientY };
  }
  return null;
}

/**
 * The time grid's point at a viewport point: the day column under it (FullCalendar's `gridcell`
 * with `data-date`, drawn from `span.min` to `span.max`) and the minute of the day at that height.
 * Null off the time grid (the list view, the header, outside the calendar).
 */
export function gridPointAt(calendarEl: HTMLElement, at: { x: number; y: number }, span: HourSpan): GridPoint | null {
  for (const col of calendarEl.querySelectorAll<HTMLElement>('[role="gridcell"][data-date]')) {
    const r = col.getBoundingClientRect();
    if (r.height <= 0 || at.x < r.left || at.x >= r.right || at.y < r.top || at.y > r.bottom) continue;
    const date = col.dataset.date;
    if (!date) continue;
    return { date, minute: minuteAt(at.y - r.top, r.height, span.min, span.max) };
  }
  return null;
}

/** The dates the calendar shows (a day or a week) and whether it is the list, where hours mean nothing. */
export interface Visible {
  from: string;
  to: string;
  list: boolean;
}

/**
 * The hours the time grid shows: fitted to the shifts of the shown dates (`fittedHours`), or all 24
 * after "Show all 24 hours" (a toggle button, kept in the address as `hours=all`), with a line that
 * says which. `draw` changes the calendar's hours; it is called only when they change.
 */
export class GridHours {
  readonly box: HTMLParagraphElement;
  private readonly line: HTMLSpanElement;
  private readonly button: HTMLButtonElement;
  private all = new URL(window.location.href).searchParams.get('hours') === 'all';
  shown: HourSpan = WHOLE_DAY;
  private last: { shifts: readonly ScheduleShift[]; visible: Visible } = { shifts: [], visible: { from: '', to: '', list: true } };

  constructor(private readonly draw: (span: HourSpan) => void) {
    this.line = document.createElement('span');
    this.line.id = 'schedule-hours-shown';
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'button button-secondary';
    this.button.textContent = 'Show all 24 hours';
    this.button.setAttribute('aria-describedby', this.line.id);
    this.button.addEventListener('click', () => {
      this.all = !this.all;
      const url = new URL(window.location.href);
      if (this.all) url.searchParams.set('hours', 'all');
      else url.searchParams.delete('hours');
      window.history.replaceState(null, '', url);
      this.update(this.last.shifts, this.last.visible);
    });
    this.box = document.createElement('p');
    this.box.className = 'schedule-hours';
    this.box.append(this.line, this.button);
  }

  /** The hours for `shifts` on the `visible` dates, without drawing them (the calendar's first options). */
  fit(shifts: readonly ScheduleShift[], visible: Visible): HourSpan {
    this.last = { shifts, visible };
    this.shown = this.all ? WHOLE_DAY : fittedHours(shifts, visible.from, visible.to);
    this.say();
    return this.shown;
  }

  /** Fits the grid again (after another week was read, or another view chosen), drawing only a change. */
  update(shifts: readonly ScheduleShift[], visible: Visible) {
    const before = this.shown;
    const next = this.fit(shifts, visible);
    if (next.min !== before.min || next.max !== before.max) this.draw(next);
  }

  private say() {
    const { shifts, visible } = this.last;
    const whole = this.shown.min === WHOLE_DAY.min && this.shown.max === WHOLE_DAY.max;
    const range = visible.from === visible.to ? 'day' : 'week';
    const any = shifts.some((s) => inRange(s, visible.from, visible.to));
    this.box.hidden = visible.list;
    this.button.setAttribute('aria-pressed', String(this.all));
    // Nothing to widen when the shifts already reach both ends of the day.
    this.button.hidden = !this.all && whole;
    this.line.textContent = this.all
      ? 'All 24 hours are shown.'
      : whole
        ? `All 24 hours are shown: this ${range}'s shifts run from midnight to midnight.`
        : any
          ? `Shown: ${hoursSpanText(this.shown)}, an hour either side of this ${range}'s shifts.`
          : `Shown: ${hoursSpanText(this.shown)} (no shifts this ${range}).`;
  }
}
