import { render, useRef, useState } from 'hono/jsx/dom';
import Papa from 'papaparse';
import { client, newIdempotencyKey, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';
import { checkRow, type Crew, type Role, type RowInput, type RowProblem, type ShiftInputBounds, toRequest } from './shift-rows.model';

/**
 * Bulk posting: rows pasted or read from a CSV file (date, in, out, role, rate, shifter or
 * "broadcast", note), checked here before anything is sent, then posted through the same operation
 * as one shift (send_request), five at a time, with a progress bar. Each row carries its own
 * Idempotency-Key, so sending it again after a lost answer never posts twice; a row that was
 * refused shows the service's message beside it, can be corrected in place and sent again alone
 * (with a new key, since it is a new request).
 */
interface Props {
  businessId: string;
  currency: string;
  roles: Role[];
  crew: Crew[];
  /** The service's shift input bounds (services/shifts SHIFT_INPUT_BOUNDS): the checks read them. */
  bounds: ShiftInputBounds;
  scheduleHref: string;
}

type RowState = 'ready' | 'invalid' | 'sending' | 'posted' | 'failed';

interface Row extends RowInput {
  n: number;
  state: RowState;
  problems: RowProblem[];
  message: string | null;
  key: string;
}

const CONCURRENCY = 5;
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
  const [notice, setNotice] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const rowsRef = useRef<Row[]>([]);
  rowsRef.current = rows;

  const checked = (input: RowInput, n: number, key = newIdempotencyKey()): Row => {
    const problems = checkRow(input, props.roles, props.crew, props.bounds);
    return { ...input, n, problems, state: problems.length ? 'invalid' : 'ready', message: null, key };
  };

  const load = (source: string) => {
    const parsed = parseRows(source);
    if (parsed.length > MAX_ROWS) {
      setNotice(`At most ${MAX_ROWS} rows at once: this has ${parsed.length}. Split it and send the rest after.`);
      return;
    }
    const next = parsed.map((r, i) => checked(r, i + 1));
    setRows(next);
    const bad = next.filter((r) => r.state === 'invalid').length;
    setNotice(
      next.length
        ? `${next.length} row(s) read${bad ? `: ${bad} need a fix before they can be sent` : ', all ready to send'}.`
        : 'No rows found: paste one shift a line.',
    );
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
    const fixed = checked({ ...row, [field]: value }, n);
    update(n, fixed);
  };

  const sendOne = async (row: Row) => {
    update(row.n, { state: 'sending', message: null });
    const res = await send(
      client.v1.shift_request.send_request.$post(
        { json: toRequest(row, props.businessId, props.roles, props.crew) },
        write({ idempotencyKey: row.key }),
      ),
    );
    if (res.ok) {
      update(row.n, { state: 'posted', message: null });
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
    setNotice(failed ? `${posted} posted, ${failed} refused: fix them below and send them again.` : `${posted} shift(s) posted.`);
  };

  const ready = rows.filter((r) => r.state === 'ready' || r.state === 'failed');
  const done = rows.filter((r) => r.state === 'posted' || r.state === 'failed').length;
  const cell = (r: Row, field: keyof RowInput, label: string) => {
    const problem = r.problems.find((p) => p.field === field);
    const id = `row-${r.n}-${field}`;
    return (
      <td>
        <label class="visually-hidden" for={id}>
          {`Row ${r.n} ${label}`}
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
        <button type="button" class="button button-primary" disabled={running || !ready.length} onClick={() => sendRows(ready)}>
          {rows.some((r) => r.state === 'posted') ? `Send the ${ready.length} row(s) not posted yet` : `Send ${ready.length} row(s)`}
        </button>
      </div>
      <p role="status" aria-live="polite">
        {notice ?? ''}
      </p>
      {rows.length ? (
        <>
          <label for="bulk-progress">Progress</label>
          <progress id="bulk-progress" class="progress" max={rows.length} value={done} aria-valuetext={`${done} of ${rows.length} sent`} />
          <div class="table-wrap">
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
                    <td>{r.n}</td>
                    {cell(r, 'date', 'date')}
                    {cell(r, 'in', 'start')}
                    {cell(r, 'out', 'end')}
                    {cell(r, 'role', 'role')}
                    {cell(r, 'rate', 'rate')}
                    {cell(r, 'shifter', 'shifter')}
                    {cell(r, 'note', 'note')}
                    <td>
                      <span
                        class={`badge ${r.state === 'posted' ? 'badge-ok' : r.state === 'failed' || r.state === 'invalid' ? 'badge-warn' : ''}`}
                      >
                        {{ ready: 'Ready', invalid: 'Fix it', sending: 'Sending…', posted: 'Posted', failed: 'Refused' }[r.state]}
                      </span>
                      {r.message ? <p class="field-error">{r.message}</p> : null}
                      {r.state === 'failed' ? (
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
