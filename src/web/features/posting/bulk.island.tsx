import { render, useRef, useState } from 'hono/jsx/dom';
import Papa from 'papaparse';
import { client, newIdempotencyKey, read, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';
import {
  askedTwiceWords,
  busyWords,
  checkRow,
  type Crew,
  findShifter,
  type Role,
  type RowInput,
  type RowProblem,
  type ShiftInputBounds,
  toRequest,
  withTimes,
} from './shift-rows.model';

/**
 * Bulk posting: rows pasted or read from a CSV file (date, in, out, role, rate, shifter or
 * "broadcast", note), checked here before anything is sent, then posted through the same operation
 * as one shift (send_request), five at a time, with a progress bar. Each row carries its own
 * Idempotency-Key, so sending it again after a lost answer never posts twice; a row that was
 * refused shows the service's message beside it, can be corrected in place and sent again alone
 * (with a new key, since it is a new request).
 *
 * Before anything is sent, each targeted row asks the conflicts operation (three at a time) whether
 * its shifter is already booked then, and is compared with the table's earlier rows for the same
 * shifter; a row that meets either is held back, the reason in words beside it, until the owner
 * ticks "Send row n anyway". Once sent, a row shows the warnings the service answered with.
 */
interface Props {
  businessId: string;
  currency: string;
  roles: Role[];
  crew: Crew[];
  /** The service's shift input bounds (services/shifts SHIFT_INPUT_BOUNDS): the checks read them. */
  bounds: ShiftInputBounds;
  scheduleHref: string;
  /** Where the crew is invited (an empty_crew warning links there). */
  crewHref: string;
}

type RowState = 'ready' | 'invalid' | 'sending' | 'posted' | 'failed';

interface Row extends RowInput {
  n: number;
  state: RowState;
  problems: RowProblem[];
  message: string | null;
  key: string;
  /** Why the row is held back before sending: its shifter is booked then, or asked in an earlier row. */
  clash: string | null;
  /** The owner chose to send a held row all the same. */
  anyway: boolean;
  /** What the service warned of once the row was posted (send_request's `warnings`). */
  warnings: { code: string; message: string }[];
}

const CONCURRENCY = 5;
/** Conflicts asked at once before sending. */
const CHECKS_AT_ONCE = 3;
/** send_request's field names, as the row's columns. */
const SERVICE_FIELDS: Record<string, keyof RowInput> = {
  shift_date: 'date',
  shift_in: 'in',
  shift_out: 'out',
  shiftrole_id: 'role',
  hourly_rate: 'rate',
  shifter_id: 'shifter',
  note: 'note',
};
const MAX_ROWS = 200;
const COLUMNS: (keyof RowInput)[] = ['date', 'in', 'out', 'role', 'rate', 'shifter', 'note'];

/** Rows from CSV text, with or without a header line (a header names the columns in any order). */
export function parseRows(text: string): RowInput[] {
  const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: 'greedy' });
  const lines = parsed.data.filter((r) => r.some((c) => c.trim() !== ''));
  if (!lines.length) return [];
  const head = lines[0]!.map((c) => c.trim().toLowerCase());
  const hasHeader = head.includes('date');
  const order: (keyof RowInput | null)[] = hasHeader
    ? head.map((h) => (COLUMNS.includes(h as keyof RowInput) ? (h as keyof RowInput) : h === 'shifter_id' ? 'shifter' : null))
    : COLUMNS;
  return lines.slice(hasHeader ? 1 : 0).map((cells) => {
    const row: RowInput = { date: '', in: '', out: '', role: '', rate: '', shifter: '', note: '' };
    cells.forEach((cell, i) => {
      const col = order[i];
      if (col) row[col] = cell.trim();
    });
    return row;
  });
}

function BulkPoster({ props }: { props: Props }) {
  const [text, setText] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [notice, setNoticeText] = useState<string | null>(null);
  /** Rows read by the last "Check rows": the status then says how they stand, as the checks go on. */
  const [readCount, setReadCount] = useState<number | null>(null);
  const setNotice = (text: string | null) => {
    setNoticeText(text);
    setReadCount(null);
  };
  const [running, setRunning] = useState(false);
  const [checking, setChecking] = useState(0);
  const rowsRef = useRef<Row[]>([]);
  rowsRef.current = rows;
  /** The conflicts operation's answers in words, by shifter and window (null: free then); emptied by "Check rows". */
  const booked = useRef(new Map<string, string | null>());
  const asking = useRef(new Set<string>());
  /** Bumped by "Check rows": answers to an earlier check are dropped. */
  const generation = useRef(0);

  const checked = (input: RowInput, n: number, key = newIdempotencyKey()): Row => {
    const problems = checkRow(input, props.roles, props.crew, props.bounds);
    const { date, in: shiftIn, out, role, rate, shifter, note } = input;
    return {
      ...{ date, in: shiftIn, out, role, rate, shifter, note },
      n,
      problems,
      state: problems.length ? 'invalid' : 'ready',
      message: null,
      key,
      clash: null,
      anyway: false,
      warnings: [],
    };
  };

  const sendable = (r: Row) => r.state === 'ready' || r.state === 'failed';
  const held = (r: Row) => sendable(r) && r.clash !== null && !r.anyway;

  /** The conflicts question of a targeted row that may be sent: shifter, date and times, as send_request would get them. */
  const bookingKey = (r: Row): string | null => {
    if (!sendable(r)) return null;
    const who = findShifter(r.shifter, props.crew);
    if (!who || who === 'broadcast') return null;
    const t = withTimes(r);
    return [who.id, t.date, t.in, t.out].join('|');
  };

  /** Each row's reason to be held back: the service's bookings first, then an earlier row of the table. */
  const withClashes = (all: Row[]): Row[] => {
    const valid = all.filter((r) => r.state !== 'invalid').map((r) => ({ n: r.n, input: r as RowInput }));
    return all.map((r) => {
      if (!sendable(r)) return r.state === 'invalid' && r.clash !== null ? { ...r, clash: null } : r;
      const key = bookingKey(r);
      const clash = (key ? booked.current.get(key) : null) ?? askedTwiceWords(valid, r.n, props.crew);
      return clash === r.clash ? r : { ...r, clash };
    });
  };

  /** Asks the conflicts operation for every targeted row not asked yet, a few at a time. */
  const checkBookings = async (all: Row[]) => {
    const round = generation.current;
    const keys = [
      ...new Set(all.map(bookingKey).filter((k): k is string => k !== null && !booked.current.has(k) && !asking.current.has(k))),
    ];
    if (!keys.length) return;
    for (const k of keys) asking.current.add(k);
    setChecking((c) => c + keys.length);
    const queue = [...keys];
    const workers = Array.from({ length: Math.min(CHECKS_AT_ONCE, queue.length) }, async () => {
      for (let key = queue.shift(); key; key = queue.shift()) {
        const [shifterId = '', date = '', shiftIn = '', shiftOut = ''] = key.split('|');
        const res = await send(
          client.v1.shift_request.conflicts.$get(
            { query: { shifter_id: shifterId, date, shift_in: shiftIn, shift_out: shiftOut, business_id: props.businessId } },
            read(),
          ),
        );
        if (round !== generation.current) return;
        asking.current.delete(key);
        // An unanswered question marks nothing: the service's warning still comes with the answer once sent.
        if (res.ok) booked.current.set(key, busyWords(props.crew.find((c) => c.id === shifterId)?.name ?? 'This shifter', date, res.data));
        setChecking((c) => Math.max(0, c - 1));
        setRows((rs) => withClashes(rs));
      }
    });
    await Promise.all(workers);
  };

  const load = (source: string) => {
    const parsed = parseRows(source);
    if (parsed.length > MAX_ROWS) {
      setNotice(`At most ${MAX_ROWS} rows at once: this has ${parsed.length}. Split it and send the rest after.`);
      return;
    }
    generation.current += 1;
    booked.current.clear();
    asking.current.clear();
    setChecking(0);
    const next = withClashes(parsed.map((r, i) => checked(r, i + 1)));
    setRows(next);
    void checkBookings(next);
    if (next.length) {
      setNoticeText(null);
      setReadCount(next.length);
    } else setNotice('No rows found: paste one shift a line.');
  };

  const onFile = async (e: Event) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    if (file.size > 512 * 1024) {
      setNotice('That file is larger than 512 KB: send at most 200 rows at once.');
      return;
    }
    const content = await file.text();
    setText(content);
    load(content);
  };

  const update = (n: number, patch: Partial<Row>) => {
    setRows((all) => all.map((r) => (r.n === n ? { ...r, ...patch } : r)));
  };

  const edit = (n: number, field: keyof RowInput, value: string) => {
    const row = rowsRef.current.find((r) => r.n === n);
    if (!row) return;
    // A changed row is a new request: it gets a new key (the old one answered for other values).
    const next = withClashes(rowsRef.current.map((r) => (r.n === n ? checked({ ...row, [field]: value }, n) : r)));
    setRows(next);
    void checkBookings(next);
  };

  const sendAnyway = (n: number, anyway: boolean) => update(n, { anyway });

  const sendOne = async (row: Row) => {
    update(row.n, { state: 'sending', message: null });
    const res = await send(
      client.v1.shift_request.send_request.$post(
        { json: toRequest(row, props.businessId, props.roles, props.crew) },
        write({ idempotencyKey: row.key }),
      ),
    );
    if (res.ok) {
      update(row.n, { state: 'posted', message: null, warnings: res.data.warnings ?? [] });
      return;
    }
    // The service names the field it refuses (details[].field): its message goes beside that cell.
    const details = Array.isArray(res.error.details) ? (res.error.details as { field?: string; message?: string }[]) : [];
    const problems = details.flatMap((d) => {
      const field = d.field ? SERVICE_FIELDS[d.field] : undefined;
      return field ? [{ field, message: d.message ?? res.error.message }] : [];
    });
    update(row.n, { state: 'failed', message: res.error.message, problems });
  };

  const sendRows = async (which: Row[]) => {
    setRunning(true);
    const queue = [...which];
    const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await sendOne(row);
    });
    await Promise.all(workers);
    setRunning(false);
    const after = rowsRef.current;
    const failed = after.filter((r) => r.state === 'failed').length;
    const posted = after.filter((r) => r.state === 'posted').length;
    const warned = after.filter((r) => r.state === 'posted' && r.warnings.length).length;
    const warnings = warned ? ` ${warned} of them with a warning: see beside the row.` : '';
    setNotice(
      failed
        ? `${posted} posted, ${failed} refused: fix them below and send them again.${warnings}`
        : `${posted} shift(s) posted.${warnings}`,
    );
  };

  const ready = rows.filter((r) => sendable(r) && !held(r));
  const heldBack = rows.filter(held).length;
  const invalid = rows.filter((r) => r.state === 'invalid').length;
  const readNote =
    readCount === null
      ? null
      : `${readCount} row(s) read${invalid ? `: ${invalid} need a fix before they can be sent` : checking || heldBack ? '' : ', all ready to send'}.`;
  const checkNote = checking
    ? 'Checking whether the shifters are free then…'
    : heldBack
      ? `${heldBack} row(s) held back: the shifter is already booked or asked then. Change the row, or tick "Send row … anyway" beside it.`
      : '';
  const status = [readNote ?? notice, checkNote].filter(Boolean).join(' ');
  const done = rows.filter((r) => r.state === 'posted' || r.state === 'failed').length;
  /** A field of a row; its label is the column's words, shown above it where the rows stack (narrow widths). */
  const cell = (r: Row, field: keyof RowInput, label: string) => {
    const problem = r.problems.find((p) => p.field === field);
    const id = `row-${r.n}-${field}`;
    return (
      <td class={`bulk-${field}`}>
        <label class="bulk-label" for={id}>
          <span class="visually-hidden">{`Row ${r.n} `}</span>
          {label}
        </label>
        <input
          id={id}
          value={r[field]}
          disabled={r.state === 'posted' || r.state === 'sending'}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e: Event) => edit(r.n, field, (e.target as HTMLInputElement).value)}
        />
        {problem ? (
          <span class="field-error" id={`${id}-error`}>
            {problem.message}
          </span>
        ) : null}
      </td>
    );
  };

  return (
    <div class="stack">
      <div class="field field-wide">
        <label for="bulk-text">Rows</label>
        <textarea
          id="bulk-text"
          rows={8}
          value={text}
          aria-describedby="bulk-text-hint"
          onInput={(e: Event) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <p class="hint" id="bulk-text-hint">
          One shift a line: date, in, out, role, rate, shifter or "broadcast", note. Times as 09:00, 9am or 5:30pm. For example: 2026-12-01,
          9am, 5pm, Server, 18.50, broadcast, Lunch rush
        </p>
      </div>
      <div class="field">
        <label for="bulk-file">Or a CSV file</label>
        <input id="bulk-file" type="file" accept=".csv,text/csv,text/plain" onChange={onFile} />
      </div>
      <div class="actions">
        <button type="button" class="button button-secondary" onClick={() => load(text)} disabled={running}>
          Check rows
        </button>
        <button
          type="button"
          class="button button-primary"
          disabled={running || checking > 0 || !ready.length}
          onClick={() => sendRows(ready)}
        >
          {rows.some((r) => r.state === 'posted') ? `Send the ${ready.length} row(s) not posted yet` : `Send ${ready.length} row(s)`}
        </button>
      </div>
      <p role="status" aria-live="polite">
        {status}
      </p>
      {rows.length ? (
        <>
          <label for="bulk-progress">Progress</label>
          <progress id="bulk-progress" class="progress" max={rows.length} value={done} aria-valuetext={`${done} of ${rows.length} sent`} />
          {/* Narrower than the table (a phone), each row stacks: its fields labelled, its state a line under them (components.css). */}
          <div class="table-wrap bulk-wrap">
            <table class="bulk-table">
              <caption class="visually-hidden">The rows to post</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Date</th>
                  <th scope="col">In</th>
                  <th scope="col">Out</th>
                  <th scope="col">Role</th>
                  <th scope="col">Rate ({props.currency})</th>
                  <th scope="col">Shifter</th>
                  <th scope="col">Note</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr data-row={r.n} data-state={r.state}>
                    <td class="bulk-n">
                      <span class="bulk-label">Row </span>
                      {r.n}
                    </td>
                    {cell(r, 'date', 'Date')}
                    {cell(r, 'in', 'In')}
                    {cell(r, 'out', 'Out')}
                    {cell(r, 'role', 'Role')}
                    {cell(r, 'rate', `Rate (${props.currency})`)}
                    {cell(r, 'shifter', 'Shifter')}
                    {cell(r, 'note', 'Note')}
                    <td class="bulk-state">
                      <span
                        class={`badge ${r.state === 'posted' ? 'badge-ok' : r.state === 'failed' || r.state === 'invalid' || held(r) ? 'badge-warn' : ''}`}
                      >
                        {held(r)
                          ? 'Held back'
                          : { ready: 'Ready', invalid: 'Fix it', sending: 'Sending…', posted: 'Posted', failed: 'Refused' }[r.state]}
                      </span>
                      {r.message ? <p class="field-error">{r.message}</p> : null}
                      {sendable(r) && r.clash ? (
                        <>
                          <p class="hint" id={`row-${r.n}-clash`} data-clash>
                            {r.clash}
                          </p>
                          <div class="field checkbox">
                            <input
                              type="checkbox"
                              id={`row-${r.n}-anyway`}
                              checked={r.anyway}
                              disabled={running}
                              aria-describedby={`row-${r.n}-clash`}
                              onChange={(e: Event) => sendAnyway(r.n, (e.target as HTMLInputElement).checked)}
                            />
                            <label for={`row-${r.n}-anyway`}>{`Send row ${r.n} anyway`}</label>
                          </div>
                        </>
                      ) : null}
                      {r.state === 'posted'
                        ? r.warnings.map((w) => (
                            <p class="hint" data-warning={w.code}>
                              {w.message}
                              {w.code === 'empty_crew' ? (
                                <>
                                  {' '}
                                  <a href={props.crewHref}>Invite your crew</a>
                                </>
                              ) : null}
                            </p>
                          ))
                        : null}
                      {r.state === 'failed' && !held(r) ? (
                        <button type="button" class="button-link" disabled={running} onClick={() => sendRows([r])}>
                          {`Send row ${r.n} again`}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {rows.some((r) => r.state === 'posted') ? (
            <p>
              <a href={props.scheduleHref}>See them on the schedule</a>
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

eachIsland<Props>('bulk', (el, props) => {
  el.replaceChildren();
  render(<BulkPoster props={props} />, el);
});
