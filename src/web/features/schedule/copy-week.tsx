// Copy a week of the schedule (/dashboard/schedule/copy-week): choose the week to copy and the week
// to fill, see what will be made and what is skipped with why (the service's preview, nothing
// written), confirm; then what was made, with a link to the schedule of the week filled. The rules
// are the service's (services/templates copy-week.ts); this page only shows its answers.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { addDays, isValidDate, mondayOf, todayIn } from '@/lib/shift-time';
import { seesPay } from '@/services/access';
import type { ServiceContext } from '@/services/kernel';
import { type CopyWeekInput, type CopyWeekPreview, type CopyWeekResult, copyWeek, previewCopyWeek } from '@/services/templates';
import { Card, CsrfField, IdempotencyField, Notice, SelectField, SubmitButton } from '@/web/components';
import { formatDate } from '@/web/format';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { refusalOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { MadeTable, SkippedTable, ToMakeTable } from './copy-week-parts';

const PATH = '/dashboard/schedule/copy-week';
const FIELDS = ['source_week', 'target_week'] as const;
type Field = (typeof FIELDS)[number];

/** The weeks offered: to fill, this week and the eight after it; to copy, eight weeks either side of this one. */
const TARGET_WEEKS = [0, 8] as const;
const SOURCE_WEEKS = [-8, 8] as const;

const weekWords = (monday: string, thisWeek: string) => {
  const from = formatDate(monday);
  const rel = Math.round((Date.parse(monday) - Date.parse(thisWeek)) / (7 * 86_400_000));
  if (rel === -1) return `Last week (from ${from})`;
  if (rel === 0) return `This week (from ${from})`;
  if (rel === 1) return `Next week (from ${from})`;
  return `The week of ${from}`;
};

function weekOptions(thisWeek: string, [from, to]: readonly [number, number], chosen: string | undefined) {
  const mondays = Array.from({ length: to - from + 1 }, (_, i) => addDays(thisWeek, 7 * (from + i)));
  // A week from a bookmarked address outside the list is still shown as chosen.
  if (chosen && !mondays.includes(chosen)) mondays.push(chosen);
  return mondays.sort().map((m) => ({ value: m, label: weekWords(m, thisWeek) }));
}

/** A week asked in the address or the form: any valid date (the service reads its Monday), else the default. */
const weekAsked = (raw: unknown): string | undefined => (typeof raw === 'string' && isValidDate(raw) ? raw : undefined);

function asked(source: unknown, target: unknown, businessId: string): CopyWeekInput {
  const s = weekAsked(source);
  const t = weekAsked(target);
  return { business_id: businessId, ...(s ? { source_week: s } : {}), ...(t ? { target_week: t } : {}) };
}

interface FormState {
  base: DashboardBase;
  thisWeek: string;
  source: string;
  target: string;
  errors?: Partial<Record<Field, string>>;
}

function WeeksForm({ base, thisWeek, source, target, errors = {} }: FormState) {
  return (
    <form method="get" action={PATH} class="generate-form">
      <input type="hidden" name="business_id" value={base.business!.id} />
      <SelectField
        label="Copy the week"
        name="source_week"
        options={weekOptions(thisWeek, SOURCE_WEEKS, source)}
        value={source}
        error={errors.source_week}
      />
      <SelectField
        label="Into"
        name="target_week"
        options={weekOptions(thisWeek, TARGET_WEEKS, target)}
        value={target}
        error={errors.target_week}
      />
      <button type="submit" class="button button-secondary">
        Preview
      </button>
    </form>
  );
}

function Intro({ base }: { base: DashboardBase }) {
  const b = base.business!;
  return (
    <p class="aside">
      {`${b.name} · times in ${b.timezone}. Each shift of the week you copy is posted again on the same day of the week and at the same times; a shift asked of someone is asked of them again, an open shift goes to your crew again. Nothing is posted until you confirm.`}
    </p>
  );
}

function PreviewPage(p: FormState & { preview: CopyWeekPreview | null; error?: string | undefined }) {
  const { base, preview } = p;
  const make = preview?.would_create ?? [];
  const scheduleOfTarget = dashboardHref(base, '/dashboard/schedule', { date: preview?.target_week_start ?? p.target });
  return (
    <AppShell base={base} title="Copy last week" current="/dashboard/schedule" error={p.error}>
      <Intro base={base} />
      <WeeksForm {...p} />
      {preview ? (
        <>
          <h2>{`From the week of ${formatDate(preview.source_week_start)} into the week of ${formatDate(preview.target_week_start)}`}</h2>
          {preview.warnings.map((w) => (
            <Notice kind="info">
              <p>
                {w.message} <a href={dashboardHref(base, '/dashboard/crew')}>Invite your crew</a>
              </p>
            </Notice>
          ))}
          <Card title={`Will be made (${make.length})`}>
            {make.length ? (
              <ToMakeTable shifts={make} seesPay={seesPay(base.business?.role)} caption="Shifts that will be made" />
            ) : (
              <p class="empty">Nothing new to make: every shift of that week is already there or skipped below.</p>
            )}
          </Card>
          <Card title={`Skipped (${preview.skipped.length})`}>
            {preview.skipped.length ? (
              <SkippedTable shifts={preview.skipped} caption="Shifts that will be skipped, with why" />
            ) : (
              <p class="empty">None: every shift of that week will be copied.</p>
            )}
          </Card>
          {make.length ? (
            <form method="post" action={dashboardHref(base, PATH)} class="actions">
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <input type="hidden" name="source_week" value={preview.source_week_start} />
              <input type="hidden" name="target_week" value={preview.target_week_start} />
              <SubmitButton>{make.length === 1 ? 'Copy 1 shift' : `Copy ${make.length} shifts`}</SubmitButton>
              <a class="button button-secondary" href={scheduleOfTarget}>
                Back to the schedule
              </a>
            </form>
          ) : (
            <p class="actions">
              <a class="button button-secondary" href={scheduleOfTarget}>
                See the week of {formatDate(preview.target_week_start)} on the schedule
              </a>
            </p>
          )}
        </>
      ) : null}
    </AppShell>
  );
}

function ResultPage({ base, result }: { base: DashboardBase; result: CopyWeekResult }) {
  const n = result.created.length;
  const target = formatDate(result.target_week_start);
  const summary =
    n === 0
      ? `Nothing new was made in the week of ${target}: every shift is already there or skipped.`
      : `${n === 1 ? '1 shift was' : `${n} shifts were`} made in the week of ${target}; ${result.skipped.length} skipped.`;
  return (
    <AppShell base={base} title="Copy last week" current="/dashboard/schedule" notice={summary}>
      <Card title={`Made (${n})`}>
        {n ? (
          <MadeTable
            shifts={result.created}
            href={(id) => dashboardHref(base, `/dashboard/shifts/${encodeURIComponent(id)}`)}
            caption="Shifts made"
          />
        ) : (
          <p class="empty">Nothing new was made.</p>
        )}
      </Card>
      <Card title={`Skipped (${result.skipped.length})`}>
        {result.skipped.length ? (
          <SkippedTable shifts={result.skipped} caption="Shifts skipped, with why" />
        ) : (
          <p class="empty">None: every shift was copied.</p>
        )}
      </Card>
      <p class="actions">
        <a class="button button-primary" href={dashboardHref(base, '/dashboard/schedule', { date: result.target_week_start })}>
          See the week of {target} on the schedule
        </a>
        <a
          class="button button-secondary"
          href={dashboardHref(base, PATH, { source_week: result.source_week_start, target_week: result.target_week_start })}
        >
          Copy again
        </a>
      </p>
      <Notice kind="info">
        <p>Open shifts are offered to your crew now; each person asked for a shift is asked to accept it.</p>
      </Notice>
    </AppShell>
  );
}

/** The weeks shown in the form: those asked, else the service's defaults (next week, from the week before it). */
function formWeeks(base: DashboardBase, nowMs: number, input: CopyWeekInput) {
  const thisWeek = mondayOf(todayIn(base.business!.timezone, nowMs));
  const target = input.target_week ? mondayOf(input.target_week) : addDays(thisWeek, 7);
  const source = input.source_week ? mondayOf(input.source_week) : addDays(target, -7);
  return { base, thisWeek, source, target };
}

function refused(c: Context<AppEnv>, state: FormState, err: unknown) {
  const r = refusalOf(err, FIELDS);
  const status: ContentfulStatusCode = r.status;
  return renderPage(c, <PreviewPage {...state} errors={r.errors} preview={null} error={r.message} />, status);
}

/** The schedule's toolbar link names the week it shows (`date`): that week is filled from the one before, when it can be. */
async function previewFromSchedule(ctx: ServiceContext, input: CopyWeekInput, date: string | undefined) {
  if (!date || input.target_week || input.source_week) return previewCopyWeek(ctx, input);
  try {
    return await previewCopyWeek(ctx, { ...input, target_week: date });
  } catch (err) {
    // A week already over cannot be filled: the page opens on the service's default weeks instead.
    if (err instanceof AppError && err.code === 'VALIDATION-ERR') return previewCopyWeek(ctx, input);
    throw err;
  }
}

export async function renderCopyWeek(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const input = asked(c.req.query('source_week'), c.req.query('target_week'), base.business.id);
  const state = formWeeks(base, ctx.now(), input);
  try {
    const preview = await previewFromSchedule(ctx, input, weekAsked(c.req.query('date')));
    return renderPage(
      c,
      <PreviewPage {...state} source={preview.source_week_start} target={preview.target_week_start} preview={preview} />,
    );
  } catch (err) {
    return refused(c, state, err);
  }
}

export async function postCopyWeek(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const form = await c.req.parseBody();
  const input = asked(form.source_week, form.target_week, base.business.id);
  try {
    const result = await copyWeek(ctx, input);
    return renderPage(c, <ResultPage base={base} result={result} />);
  } catch (err) {
    return refused(c, formWeeks(base, ctx.now(), input), err);
  }
}
