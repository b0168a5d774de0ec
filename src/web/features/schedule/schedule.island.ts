import {
  Calendar,
  type DateSelectInfo,
  type DatesSetInfo,
  type EventApi,
  type EventClickInfo,
  type EventDisplayInfo,
  type EventDropInfo,
  type EventInput,
  type EventResizeDoneInfo,
  type EventSourceFuncInfo,
} from 'fullcalendar';
import interactionPlugin from 'fullcalendar/interaction';
import listPlugin from 'fullcalendar/list';
import classicTheme from 'fullcalendar/themes/classic';
import timeGridPlugin from 'fullcalendar/timegrid';
import 'fullcalendar/skeleton.css';
import 'fullcalendar/themes/classic/theme.css';
import 'fullcalendar/themes/classic/palette.css';
import { type ApiError, type ApiResult, client, money, newIdempotencyKey, type OkBody, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';
import { onLive } from '@/web/client/live';
import { GridHours, gridPointAt, pointOf, type Visible } from './schedule-grid.client';
import {
  dateText,
  droppedShift,
  type GridPoint,
  gridTime,
  hoursText,
  isChangeable,
  type LaborWeek,
  laborLines,
  mondayOfDate,
  SCHEDULE_STATUSES,
  type ScheduleShift,
  shiftDate,
  shiftWho,
  stillToCome,
} from './schedule.model';

/**
 * The schedule: the business's shifts on a FullCalendar week, day or list, in the business's zone.
 * - Selecting a free range opens the post-a-shift form prefilled with its date and times.
 * - A pending shift that has not started can be dragged or resized (15-minute snap). A drag lands
 *   where the pointer's travel, rounded to the nearest quarter hour, takes it, wherever the shift was
 *   grabbed (schedule.model.ts `droppedShift`). Nothing is saved by the drag: a dialog says what will
 *   happen (the change request of spec 3.2 supersedes the original and sends a pending child to the
 *   shifter), lists a targeted shifter's conflicts, and sends it only when confirmed; Cancel puts the
 *   shift back.
 * - The grid shows the hours of the shown range's shifts with an hour either side (`fittedHours`),
 *   or all 24 with "Show all 24 hours" (kept in the address as `hours=all`).
 * - The same by keyboard (WCAG 2.5.7): every shift is a button; Enter opens "Move or resize" with
 *   date, start and end fields in 15-minute steps, which leads to the same confirmation.
 * - A click (or Enter) on a shift that cannot be moved opens its page (its story, cancel, unassign);
 *   the "Move or resize" dialog of a pending one links to the same page, and so does each list row.
 * - The owner's labor card beside it (worked, still to come, against the budget) is fetched again
 *   after every change and on every week shown; ?date= and ?view= follow the calendar.
 * Without script the server's table stays, with a plain change form per shift.
 */
interface Props {
  businessId: string;
  timezone: string;
  currency: string;
  view: 'week' | 'day' | 'list';
  date: string;
  /** The Monday of the week `shifts` holds (Monday to Sunday, and the Sunday before's overnight shifts). */
  week: string;
  shifts: ScheduleShift[];
  labor: LaborWeek | null;
  seesPay: boolean;
  postHref: string;
  scheduleHref: string;
  changeHref: string;
  /** A shift's page, `{id}` in place of its id: its story, cancel and unassign (features/shift). */
  shiftHref: string;
}

/** A page of list_of_requests, named for the loop that pages through them. */
type ShiftList = OkBody<Awaited<ReturnType<typeof client.v1.shift_request.list_of_requests.$post>>>;

const VIEW_NAMES = { week: 'timeGridWeek', day: 'timeGridDay', list: 'listWeek' } as const;
type ViewKey = keyof typeof VIEW_NAMES;
const viewKeyOf = (name: string): ViewKey => (name === 'timeGridDay' ? 'day' : name === 'listWeek' ? 'list' : 'week');
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const STEP_MINUTES = 15;
const DAY_MS = 86_400_000;

/** A tiny element builder: the island builds its DOM by hand, beside the calendar's own. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

/** The wall-clock date and time of a calendar ISO string ("2026-05-12T09:45:00-04:00", in the business's zone). */
const wall = (iso: string) => ({ date: iso.slice(0, 10), time: iso.slice(11, 16) });

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const onStep = (hhmm: string) => minutesOf(hhmm) % STEP_MINUTES === 0;

/** A change about to be sent: the shift, its new date and times, and how to put the calendar back. */
interface Proposal {
  shift: ScheduleShift;
  date: string;
  in: string;
  out: string;
  revert: (() => void) | null;
  key: string;
}

function mount(root: HTMLElement, props: Props) {
  const main = root.querySelector<HTMLElement>('[data-schedule-main]');
  const laborBox = root.querySelector<HTMLElement>('[data-schedule-labor]');
  if (!main) return;
  const nowMs = () => Date.now();
  const fmt = (n: number) => money(n, props.currency);
  const shiftHref = (s: ScheduleShift) => props.shiftHref.replace('{id}', encodeURIComponent(s.id));
  /** The link to a shift's page, named for it (the visible words alone repeat on every shift). */
  const pageLink = (s: ScheduleShift, text: string, cls: string) =>
    h(
      'a',
      { href: shiftHref(s), class: cls },
      text,
      h('span', { class: 'visually-hidden' }, ` of ${describe(s)}, ${whenText(s.shift_date, s.shift_in, s.shift_out)}`),
    );

  // ---- Layout: the help line, the calendar, a polite live region, the dialog ----
  const live = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const problem = h('div', { class: 'notice notice-error', role: 'alert', hidden: true });
  const calendarEl = h('div', { class: 'schedule-calendar' });
  const help = h(
    'p',
    { class: 'hint', id: 'schedule-help' },
    'Drag a pending shift to move it, or drag its lower edge to change its end, in 15-minute steps. ',
    'By keyboard, Tab to a shift and press Enter to move or resize it. Select free time to post a shift there. ',
    'Any other shift opens its own page: its story, and cancel or unassign.',
  );
  // The hours shown: fitted to the shifts, or the whole day, and a line saying which.
  const hours = new GridHours((span) => {
    // Redrawing the grid replaces the shifts' elements: a focused shift keeps the focus.
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('[data-shift-id]') : null;
    calendar.resetOptions({ slotMinTime: gridTime(span.min), slotMaxTime: gridTime(span.max) }, ['slotMinTime', 'slotMaxTime']);
    const id = focused?.dataset.shiftId;
    if (id) window.requestAnimationFrame(() => focusShift(id));
  });
  main.replaceChildren(help, hours.box, problem, calendarEl, live);
  const dialog = h('dialog', { class: 'schedule-dialog', 'aria-labelledby': 'schedule-dialog-title' });
  root.append(dialog);

  const say = (text: string) => {
    // Cleared first, so the same sentence twice is announced twice.
    live.textContent = '';
    window.setTimeout(() => {
      live.textContent = text;
    }, 50);
  };
  const showProblem = (text: string | null) => {
    problem.hidden = text === null;
    problem.textContent = text ?? '';
  };

  // ---- Data: the shown week's shifts, and the labor card that follows them ----
  let weekShifts: ScheduleShift[] = props.shifts;
  let weekStart = props.week;
  let labor: LaborWeek | null = props.labor;
  let initial = true;
  /** The dates the calendar shows now (a day or a week), and whether it is the list. */
  let visible: Visible = { from: props.week, to: shiftDate(props.week, 6), list: false };
  const applyHours = () => hours.update(weekShifts, visible);

  const renderLabor = () => {
    if (!laborBox || !props.seesPay) return;
    if (!labor) {
      laborBox.replaceChildren(h('p', { class: 'muted' }, 'The labor cost could not be read. It is tried again after the next change.'));
      return;
    }
    const lines = laborLines(labor, stillToCome(weekShifts, labor.week_start, labor.currency, nowMs()), fmt);
    const nodes: Node[] = [h('p', { class: 'aside' }, lines.week), h('p', { class: 'stat' }, fmt(lines.expected))];
    nodes.push(h('p', { class: 'stat-label' }, `Expected, ${lines.against}`));
    if (lines.budget !== null && lines.budget > 0) {
      const meter = h('meter', {
        class: 'meter',
        min: '0',
        max: String(lines.budget),
        high: String(lines.budget * 0.9),
        optimum: '0',
        'aria-label': 'Expected labor cost of the week against the budget',
      });
      meter.value = Math.min(lines.expected, lines.budget);
      nodes.push(meter);
    }
    if (lines.over) nodes.push(h('p', { class: 'field-error' }, lines.over));
    nodes.push(h('ul', { class: 'list-plain' }, h('li', {}, lines.worked), h('li', {}, lines.coming)));
    laborBox.replaceChildren(...nodes);
  };

  const refreshLabor = async () => {
    if (!props.seesPay) return;
    const res = await send(
      client.v1.business[':id'].labor_costs.$get({ param: { id: encodeURIComponent(props.businessId) }, query: { week: weekStart } }),
    );
    labor = res.ok ? res.data : null;
    renderLabor();
  };

  /** Every shift of the week from Monday `monday` (and the overnight ones of the Sunday before), all pages. */
  const loadWeek = async (monday: string): Promise<ScheduleShift[]> => {
    const rows: ScheduleShift[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: ApiResult<ShiftList> = await send(
        client.v1.shift_request.list_of_requests.$post({
          json: {
            as: 'business',
            business_id: props.businessId,
            status: [...SCHEDULE_STATUSES],
            date_from: shiftDate(monday, -1),
            date_to: shiftDate(monday, 6),
            limit: 200,
            ...(cursor ? { cursor } : {}),
          },
        }),
      );
      if (!res.ok) throw new Error(res.error.message);
      rows.push(...res.data.data);
      cursor = res.data.next_cursor;
      if (!cursor) break;
    }
    return rows;
  };

  const toEvent = (s: ScheduleShift): EventInput => {
    const st = s.state_words;
    const changeable = isChangeable(s, nowMs());
    return {
      id: s.id,
      start: s.starts_at,
      end: s.ends_at,
      title: `${s.role ?? 'Shift'} · ${shiftWho(s)}`,
      startEditable: changeable,
      durationEditable: changeable,
      // Every shift is a button (Enter opens it): a pending one to move, the others to read why not.
      interactive: true,
      color: `var(--shift-${st.tone}-bg)`,
      contrastColor: `var(--shift-${st.tone}-text)`,
      className: `shift-event shift-${st.tone}`,
      extendedProps: { shift: s },
    };
  };
  const shiftOf = (e: EventApi) => e.extendedProps.shift as ScheduleShift;

  /** Where the pointer took hold of a shift on the grid: captured before the calendar's own handlers see it. */
  let grab: GridPoint | null = null;
  calendarEl.addEventListener(
    'pointerdown',
    (ev) => {
      const onShift = ev.target instanceof Element && ev.target.closest('[data-shift-id]') !== null;
      const at = pointOf(ev);
      grab = onShift && at && !visible.list ? gridPointAt(calendarEl, at, hours.shown) : null;
    },
    true,
  );

  const events = async (info: EventSourceFuncInfo): Promise<EventInput[]> => {
    const monday = mondayOfDate(info.startStr.slice(0, 10));
    if (initial && monday === props.week) {
      initial = false;
      weekStart = monday;
      renderLabor();
      return weekShifts.map(toEvent);
    }
    initial = false;
    try {
      const rows = await loadWeek(monday);
      weekShifts = rows;
      weekStart = monday;
      showProblem(null);
      void refreshLabor();
      // After the calendar has taken the answer: the hours may widen or narrow for the new week.
      window.setTimeout(applyHours, 0);
      return rows.map(toEvent);
    } catch (err) {
      showProblem(`The shifts could not be loaded: ${err instanceof Error ? err.message : 'try again'}.`);
      return [];
    }
  };

  // ---- The dialog: "Move or resize" (the keyboard way), the confirmation, and "why not" ----
  let proposal: Proposal | null = null;
  let opener: { id: string } | null = null;

  const buttonRow = (...buttons: HTMLElement[]) => h('div', { class: 'actions' }, ...buttons);
  const closeButton = (label: string) => {
    const b = h('button', { type: 'button', class: 'button button-secondary' }, label);
    b.addEventListener('click', () => dialog.close('cancel'));
    return b;
  };
  const open = (title: string, ...body: Node[]) => {
    dialog.replaceChildren(h('h2', { id: 'schedule-dialog-title' }, title), ...body);
    if (!dialog.open) dialog.showModal();
  };
  /** A shift is a button in the grids; in the list its row holds the button (pending shifts only). */
  const focusable = (el: HTMLElement | null) => (el?.getAttribute('role') === 'button' ? el : el?.querySelector<HTMLElement>('button'));
  /** Where the focus goes back to: the shift's button as the calendar draws it now (it may be a new one). */
  const focusShift = (id: string) => {
    const target = focusable(calendarEl.querySelector<HTMLElement>(`[data-shift-id="${CSS.escape(id)}"]`));
    if (target) target.focus();
    else calendarEl.querySelector<HTMLElement>('.fc-toolbar button, button')?.focus();
  };
  let focusAfterLoad: string | null = null;

  dialog.addEventListener('close', () => {
    // Closed without sending (Cancel, Escape): the dragged shift goes back where it was.
    if (proposal && dialog.returnValue !== 'sent') proposal.revert?.();
    if (dialog.returnValue !== 'sent' && opener) focusShift(opener.id);
    proposal = null;
    dialog.returnValue = '';
  });

  const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: props.timezone });
  /** An instant as the wall-clock time in the business's zone: "09:04". */
  const clock = (iso: string) => clockFormat.format(new Date(iso));
  const describe = (s: ScheduleShift) => `${s.role ?? 'Shift'} · ${shiftWho(s)}`;
  const whenText = (date: string, i: string, o: string) => `${dateText(date)}, ${hoursText(i, o)}`;

  const fieldRow = (id: string, label: string, input: HTMLInputElement, hint?: string) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      input,
      hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
      h('p', { class: 'field-error', id: `${id}-error`, hidden: true }),
    );

  /** "Move or resize": the keyboard way to do what a drag does, then the same confirmation. */
  const openEdit = (s: ScheduleShift) => {
    const date = h('input', { id: 'move-date', name: 'shift_date', type: 'date', required: true, value: s.shift_date });
    const start = h('input', { id: 'move-in', name: 'shift_in', type: 'time', step: '900', required: true, value: s.shift_in });
    const end = h('input', {
      id: 'move-out',
      name: 'shift_out',
      type: 'time',
      step: '900',
      required: true,
      value: s.shift_out,
      'aria-describedby': 'move-out-hint',
    });
    const form = h(
      'form',
      { method: 'dialog', novalidate: true },
      h('p', {}, `Now: ${whenText(s.shift_date, s.shift_in, s.shift_out)} (times in ${props.timezone}).`),
      h(
        'div',
        { class: 'form-grid' },
        fieldRow('move-date', 'Date', date),
        fieldRow('move-in', 'Starts', start),
        fieldRow('move-out', 'Ends', end, 'In 15-minute steps. Earlier than the start: it ends the next day.'),
      ),
    );
    const next = h('button', { type: 'submit', class: 'button button-primary' }, 'Review the change');
    form.append(buttonRow(next, closeButton('Cancel')));
    form.append(h('p', {}, pageLink(s, 'Open the shift: its story, cancel it', 'shift-link')));
    const mark = (input: HTMLInputElement, message: string | null) => {
      const err = form.querySelector<HTMLElement>(`#${input.id}-error`)!;
      err.hidden = message === null;
      err.textContent = message ?? '';
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      const hint = form.querySelector(`#${input.id}-hint`) ? `${input.id}-hint ` : '';
      input.setAttribute('aria-describedby', `${hint}${message ? `${input.id}-error` : ''}`.trim());
    };
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const checks: [HTMLInputElement, string | null][] = [
        [date, /^\d{4}-\d{2}-\d{2}$/.test(date.value) ? null : 'Enter a date.'],
        [
          start,
          !HH_MM.test(start.value) ? 'Enter a time as HH:MM.' : onStep(start.value) ? null : 'Use a quarter hour (:00, :15, :30, :45).',
        ],
        [
          end,
          !HH_MM.test(end.value)
            ? 'Enter a time as HH:MM.'
            : !onStep(end.value)
              ? 'Use a quarter hour (:00, :15, :30, :45).'
              : end.value === start.value
                ? 'The end must differ from the start.'
                : null,
        ],
      ];
      for (const [input, message] of checks) mark(input, message);
      const bad = checks.find(([, m]) => m !== null);
      if (bad) {
        bad[0].focus();
        return;
      }
      if (date.value === s.shift_date && start.value === s.shift_in && end.value === s.shift_out) {
        mark(start, 'These are the times it has now: change the date or a time.');
        start.focus();
        return;
      }
      confirmChange({ shift: s, date: date.value, in: start.value, out: end.value, revert: null, key: newIdempotencyKey() });
    });
    open(`Move or resize: ${describe(s)}`, form);
    date.focus();
  };

  /** The confirmation every change goes through, with a targeted shifter's conflicts. */
  const confirmChange = (p: Proposal) => {
    proposal = p;
    const s = p.shift;
    const who = shiftWho(s);
    const what = s.is_broadcast
      ? 'The open broadcast is replaced: the original is marked superseded and a new broadcast with the new times goes to the crew.'
      : `The request is replaced: the original is marked superseded and a new pending request with the new times goes to ${who}, who must accept it.`;
    const conflictBox = h('div', { 'aria-live': 'polite' });
    const error = h('div', { class: 'notice notice-error', role: 'alert', hidden: true });
    const sendButton = h('button', { type: 'button', class: 'button button-primary' }, 'Send the change');
    open(
      'Send this change?',
      h(
        'dl',
        { class: 'schedule-change' },
        h('dt', {}, 'Shift'),
        h('dd', {}, describe(s)),
        h('dt', {}, 'Now'),
        h('dd', {}, whenText(s.shift_date, s.shift_in, s.shift_out)),
        h('dt', {}, 'New'),
        h('dd', {}, h('strong', {}, whenText(p.date, p.in, p.out))),
      ),
      h('p', {}, what),
      conflictBox,
      error,
      buttonRow(sendButton, closeButton('Cancel')),
    );
    sendButton.focus();

    if (s.shifter_id && !s.is_broadcast) {
      conflictBox.replaceChildren(h('p', { class: 'hint' }, `Checking ${who}'s other shifts…`));
      void send(
        client.v1.shift_request.conflicts.$get({
          query: {
            shifter_id: s.shifter_id,
            date: p.date,
            shift_in: p.in,
            shift_out: p.out,
            exclude_shift_request_id: s.id,
            business_id: props.businessId,
          },
        }),
      ).then((res) => {
        if (proposal !== p) return;
        if (!res.ok) {
          conflictBox.replaceChildren(h('p', { class: 'hint' }, `${who}'s other shifts could not be checked: ${res.error.message}`));
          return;
        }
        const lines = [
          ...res.data.data.map(
            (c) => `${c.business_name ?? 'Your business'}: ${dateText(c.shift_date)} ${hoursText(c.shift_in, c.shift_out)}`,
          ),
          ...res.data.busy.map((b) => `Another business: ${clock(b.starts_at)}–${clock(b.ends_at)}`),
        ];
        if (!lines.length) {
          conflictBox.replaceChildren(h('p', { class: 'hint' }, `No conflict with ${who}'s other shifts.`));
          return;
        }
        conflictBox.replaceChildren(
          h(
            'div',
            { class: 'notice notice-error' },
            h('p', {}, `${who} is already busy then:`),
            h('ul', {}, ...lines.map((l) => h('li', {}, l))),
            h('p', {}, 'You can still send the change; they would have to choose.'),
          ),
        );
        sendButton.textContent = 'Send the change anyway';
      });
    }

    sendButton.addEventListener('click', async () => {
      sendButton.disabled = true;
      error.hidden = true;
      const res = await send(
        client.v1.shift_request.change_request.$put(
          { json: { shift_request_id: s.id, shift_date: p.date, shift_in: p.in, shift_out: p.out } },
          write({ idempotencyKey: p.key }),
        ),
      );
      sendButton.disabled = false;
      if (!res.ok) {
        error.replaceChildren(h('p', {}, failureText(res.error)));
        error.hidden = false;
        return;
      }
      const child = res.data.shift_request;
      focusAfterLoad = child.id;
      dialog.close('sent');
      opener = null;
      say(
        `Change sent: ${describe(child)} now ${whenText(child.shift_date, child.shift_in, child.shift_out)}, waiting for ${
          child.is_broadcast ? 'the crew' : shiftWho(child)
        } to accept. The original request is superseded.`,
      );
      calendar.refetchEvents();
    });
  };

  const failureText = (e: ApiError) => {
    const issues = (e.details as { issues?: { path?: unknown[]; message?: string }[] } | undefined)?.issues;
    const fields = Array.isArray(e.details) ? (e.details as { field?: string; message?: string }[]) : [];
    const first = fields.find((f) => f.message) ?? issues?.[0];
    return first?.message && !e.message.includes(first.message) ? `${e.message} (${first.message})` : e.message;
  };

  /** A drag or resize ended: nothing is saved yet; the dialog asks first. */
  const proposeFromCalendar = (info: EventDropInfo | EventResizeDoneInfo, moved: boolean) => {
    const s = shiftOf(info.event);
    const start = wall(info.event.startStr);
    const end = wall(info.event.endStr);
    opener = { id: s.id };
    const span = Date.parse(info.event.endStr) - Date.parse(info.event.startStr);
    if (span <= 0 || span > DAY_MS) {
      info.revert();
      say('A shift lasts between 15 minutes and 24 hours: the shift was put back.');
      return;
    }
    // A move lands where the pointer's own travel takes it, rounded to the nearest quarter hour
    // (the calendar's hit test floors both ends of the drag); a resize keeps the calendar's edge.
    const at = pointOf(info.jsEvent);
    const drop = moved && grab && at ? gridPointAt(calendarEl, at, hours.shown) : null;
    const next = grab && drop ? droppedShift(s, grab, drop) : { shift_date: start.date, shift_in: start.time, shift_out: end.time };
    grab = null;
    if (next.shift_date !== start.date || next.shift_in !== start.time) {
      const endDate = next.shift_out <= next.shift_in ? shiftDate(next.shift_date, 1) : next.shift_date;
      info.event.setDates(`${next.shift_date}T${next.shift_in}:00`, `${endDate}T${next.shift_out}:00`);
    }
    // Back to its own times, rather than the calendar's revert: that would add the old copy again
    // if the week was fetched anew meanwhile (a live update), leaving the shift drawn twice.
    const revert = () => calendar.getEventById(s.id)?.setDates(s.starts_at, s.ends_at);
    confirmChange({ shift: s, date: next.shift_date, in: next.shift_in, out: next.shift_out, revert, key: newIdempotencyKey() });
  };

  // ---- The address keeps the week and the view ----
  const keepAddress = (info: DatesSetInfo) => {
    const view = viewKeyOf(info.view.type);
    const from = info.startStr.slice(0, 10);
    const to = shiftDate(info.endStr.slice(0, 10), -1);
    const url = new URL(window.location.href);
    const current = url.searchParams.get('date') ?? '';
    const date = view === 'day' ? from : current >= from && current <= to ? current : from;
    url.searchParams.set('date', date);
    if (view === 'week') url.searchParams.delete('view');
    else url.searchParams.set('view', view);
    url.searchParams.delete('notice');
    window.history.replaceState(null, '', url);
    // The toolbar's links about the shown week (its people, its CSV) follow it.
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-week-link]')) {
      const link = new URL(a.href);
      link.searchParams.set('date', date);
      a.href = `${link.pathname}${link.search}`;
    }
  };

  const asked = new URL(window.location.href).searchParams.get('view');
  // On a phone the week's seven columns are too narrow to read: the day, unless a view was asked for.
  const startView: ViewKey = asked ? props.view : window.matchMedia('(max-width: 40rem)').matches ? 'day' : props.view;
  visible = startView === 'day' ? { from: props.date, to: props.date, list: false } : { ...visible, list: startView === 'list' };
  const firstHours = hours.fit(weekShifts, visible);

  const calendar = new Calendar(calendarEl, {
    plugins: [timeGridPlugin, listPlugin, interactionPlugin, classicTheme],
    timeZone: props.timezone,
    initialView: VIEW_NAMES[startView],
    initialDate: props.date,
    firstDay: 1,
    headingLevel: 2,
    height: 'auto',
    allDaySlot: false,
    nowIndicator: true,
    // One slot per snap step: the calendar takes hold of a dragged shift at the middle of the slot
    // under the pointer, so with 30-minute slots a 40-minute drag landed +30 or +45 by a pixel
    // (docs/decisions/schedule-grid.md). Labels stay hourly.
    slotDuration: '00:15',
    snapDuration: '00:15',
    slotHeaderInterval: '01:00',
    slotMinTime: gridTime(firstHours.min),
    slotMaxTime: gridTime(firstHours.max),
    selectable: true,
    // The plain highlight: with selectMirror on, 7.1.0 stops following the pointer after the first quarter hour.
    selectMirror: false,
    editable: false,
    eventResizableFromStart: false,
    headerToolbar: { start: 'prev,next today', center: 'title', end: 'timeGridWeek,timeGridDay,listWeek' },
    buttons: {
      // The visible word first in its name (WCAG 2.5.3), then what it does.
      today: { text: 'Today', hint: (_text: string, unit: string) => `Today: this ${unit}` },
      timeGridWeek: { text: 'Week' },
      timeGridDay: { text: 'Day' },
      listWeek: { text: 'List' },
    },
    eventTimeFormat: { hour: '2-digit', minute: '2-digit', hour12: false },
    slotHeaderFormat: { hour: '2-digit', minute: '2-digit', hour12: false },
    dayHeaderFormat: { weekday: 'short', day: 'numeric' },
    noEventsText: 'No shifts this week.',
    // In the list a row is a list item, not a button: its "Move or resize" button is inside it.
    views: { listWeek: { eventInteractive: false } },
    listItemEventBeforeClass: 'schedule-list-dot',
    events,
    eventContent: (arg: EventDisplayInfo) => {
      const s = shiftOf(arg.event);
      const st = s.state_words;
      const body = h(
        'span',
        { class: 'shift-event-body' },
        arg.timeText ? h('span', { class: 'shift-event-time' }, arg.timeText) : null,
        h('span', { class: 'shift-event-title' }, s.role ?? 'Shift'),
        h('span', { class: 'shift-event-who' }, shiftWho(s)),
        h('span', { class: 'shift-event-state' }, st.label),
      );
      const changeable = isChangeable(s, nowMs());
      if (arg.view.type === 'listWeek') {
        // The tone as the legend draws it (the list's own dot would be the pale block colour).
        body.prepend(h('span', { class: `schedule-swatch shift-${st.tone}`, 'aria-hidden': 'true' }));
        // Every row links to the shift's page (a row is no button in the list).
        const details = pageLink(s, 'Details', 'button-link shift-event-action shift-link');
        // The calendar's own click on the row would act on it too.
        details.addEventListener('click', (ev) => ev.stopPropagation());
        body.append(details);
        if (!changeable) return { domNodes: [body] };
        const move = h(
          'button',
          { type: 'button', class: 'button-link shift-event-action' },
          'Move or resize',
          h('span', { class: 'visually-hidden' }, ` ${describe(s)}, ${whenText(s.shift_date, s.shift_in, s.shift_out)}`),
        );
        move.addEventListener('click', (ev) => {
          // The calendar's own click on the row would open the same dialog a second time.
          ev.stopPropagation();
          opener = { id: s.id };
          openEdit(s);
        });
        body.append(move);
        return { domNodes: [body] };
      }
      // The date and what Enter does, for a screen reader: the column header says the date to the eye.
      body.append(
        h(
          'span',
          { class: 'visually-hidden' },
          `, ${dateText(s.shift_date)}.${changeable ? ' Press Enter to move or resize.' : ' Press Enter to open it.'}`,
        ),
      );
      return { domNodes: [body] };
    },
    eventDidMount: (arg) => {
      if (arg.isMirror) return;
      const s = shiftOf(arg.event);
      arg.el.dataset.shiftId = s.id;
      if (focusAfterLoad === s.id) {
        focusAfterLoad = null;
        // By id: the grid may have been drawn again meanwhile (its hours fitted to the new times).
        window.requestAnimationFrame(() => focusShift(s.id));
      }
    },
    eventClick: (info: EventClickInfo) => {
      info.jsEvent.preventDefault();
      const s = shiftOf(info.event);
      if (!isChangeable(s, nowMs())) {
        // Nothing to move: the shift's page tells its story and offers what may still be done.
        window.location.assign(shiftHref(s));
        return;
      }
      opener = { id: s.id };
      openEdit(s);
    },
    // Only into the future: the service refuses a shift that starts in the past.
    eventAllow: (span) => Date.parse(span.startStr) > nowMs(),
    eventDrop: (info) => proposeFromCalendar(info, true),
    eventResize: (info) => proposeFromCalendar(info, false),
    selectAllow: (span) => Date.parse(span.endStr) - Date.parse(span.startStr) <= DAY_MS && Date.parse(span.startStr) > nowMs(),
    select: (info: DateSelectInfo) => {
      const start = wall(info.startStr);
      const end = wall(info.endStr);
      const url = new URL(props.postHref, window.location.origin);
      url.searchParams.set('date', start.date);
      url.searchParams.set('in', start.time);
      url.searchParams.set('out', end.time);
      window.location.assign(`${url.pathname}${url.search}`);
    },
    datesSet: (info) => {
      keepAddress(info);
      visible = { from: info.startStr.slice(0, 10), to: shiftDate(info.endStr.slice(0, 10), -1), list: info.view.type === 'listWeek' };
      window.setTimeout(applyHours, 0);
    },
  });
  calendar.render();
  // Someone else's change to the shifts (a claim, an answer, a clock-in): the shown week is fetched again (src/web/client/live.ts).
  // Fetching again draws the shifts anew: a focused shift keeps the focus (unless one already waits for it).
  onLive(
    ['shifts'],
    () => {
      const focused = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('[data-shift-id]') : null;
      focusAfterLoad ??= focused?.dataset.shiftId ?? null;
      calendar.refetchEvents();
    },
    { root, label: 'The schedule' },
  );
}

eachIsland<Props>('schedule', mount);
