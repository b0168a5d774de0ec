// Generating a template's shifts: the preview page (nothing written), the confirmed generate, and
// the page after it listing what was created and what was skipped.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { isValidDate } from '@/lib/shift-time';
import {
  GENERATE_WEEKS,
  type GeneratePreview,
  type GenerateQuery,
  generateFromTemplate,
  previewTemplateGeneration,
  type SkipReason,
  type TemplateView,
} from '@/services/templates';
import { Card, CsrfField, IdempotencyField, Notice, SubmitButton } from '@/web/components';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { refusalOf } from '@/web/features/dashboard/refusals';
import { AppShell } from '@/web/features/dashboard/shell';
import { formatDate, shiftHours } from '@/web/format';
import { renderPage } from '@/web/render';
import { PreviewForm } from './templates-form';
import { NotFound, templateOf } from './templates-found';
import { BY_CODE, daysText, FIELDS, templatePath } from './templates-values';

/** `weeks` as the service reads it (default 4, clamped to 1–12 by the service). */
function weeksAsked(raw: unknown): number | undefined {
  return typeof raw === 'string' && /^\d{1,2}$/.test(raw) ? Number(raw) : undefined;
}

/** `week_of`, the first week's date, as the service reads it (next week when absent or malformed). */
function weekOfAsked(raw: unknown): string | undefined {
  return typeof raw === 'string' && isValidDate(raw) ? raw : undefined;
}

/** What the generate query is, from a form or an address. */
const generateAsked = (weeks: unknown, weekOf: unknown): GenerateQuery => {
  const w = weeksAsked(weeks);
  const from = weekOfAsked(weekOf);
  return { ...(w === undefined ? {} : { weeks: w }), ...(from === undefined ? {} : { week_of: from }) };
};

/** Why a date is left out, in people's words (the service's reasons, SKIP_REASONS). */
const SKIP_WORDS: Record<SkipReason, string> = {
  same_template: 'already made from this template',
  same_shift: 'the same shift is already posted',
};

function SkippedList({ skipped, t }: { skipped: { shift_date: string; reason: SkipReason }[]; t: TemplateView }) {
  return (
    <ul class="date-list" aria-label="Dates skipped as already there">
      {skipped.map((d) => (
        <li>
          <time datetime={d.shift_date}>{formatDate(d.shift_date)}</time>{' '}
          <span class="muted">{`${shiftHours(t.shift_in, t.shift_out)} · ${SKIP_WORDS[d.reason]}`}</span>
        </li>
      ))}
    </ul>
  );
}

function DateList({ dates, t, label }: { dates: string[]; t: TemplateView; label: string }) {
  return (
    <ul class="date-list" aria-label={label}>
      {dates.map((d) => (
        <li>
          <time datetime={d}>{formatDate(d)}</time> <span class="muted">{shiftHours(t.shift_in, t.shift_out)}</span>
        </li>
      ))}
    </ul>
  );
}

function PreviewView(p: {
  base: DashboardBase;
  t: TemplateView;
  preview: GeneratePreview | null;
  weeks: number;
  weekOf?: string | undefined;
  error?: string | undefined;
  status?: ContentfulStatusCode;
}) {
  const { base, t, preview } = p;
  const dates = preview?.would_create.map((s) => s.shift_date) ?? [];
  return (
    <AppShell base={base} title={`Generate “${t.label}”`} current="/dashboard/templates" error={p.error}>
      <p class="aside">
        {`${daysText(t.days_of_week)} · ${shiftHours(t.shift_in, t.shift_out)} · times in ${base.business!.timezone}. Nothing is posted until you confirm.`}
      </p>
      <PreviewForm base={base} t={t} weeks={p.weeks} weekOf={p.weekOf} />
      {preview ? (
        <>
          <Card title={`Will be created (${dates.length})`}>
            {dates.length ? (
              <DateList dates={dates} t={t} label="Shifts that will be created" />
            ) : (
              <p class="empty">Nothing new to create in these weeks.</p>
            )}
          </Card>
          <Card title={`Skipped, already there (${preview.skipped.length})`}>
            {preview.skipped.length ? (
              <>
                <p class="aside">
                  These dates already have this shift (one made from this template, or the same time, role and person), so they are left as
                  they are. A cancelled or declined shift does not count: its date is made again.
                </p>
                <SkippedList skipped={preview.skipped_reasons} t={t} />
              </>
            ) : (
              <p class="empty">None: no date of these weeks has this shift yet.</p>
            )}
          </Card>
          {dates.length ? (
            <form method="post" action={dashboardHref(base, templatePath(t.id, 'generate'))} class="actions">
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <input type="hidden" name="weeks" value={String(preview.weeks)} />
              <input type="hidden" name="week_of" value={preview.week_start} />
              <SubmitButton>{dates.length === 1 ? 'Create 1 shift' : `Create ${dates.length} shifts`}</SubmitButton>
              <a class="button button-secondary" href={dashboardHref(base, '/dashboard/templates')}>
                Cancel
              </a>
            </form>
          ) : null}
        </>
      ) : (
        <p>
          <a href={dashboardHref(base, templatePath(t.id, 'edit'))}>Edit the template</a> ·{' '}
          <a href={dashboardHref(base, '/dashboard/templates')}>Back to the templates</a>
        </p>
      )}
    </AppShell>
  );
}

export async function renderGenerate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const asked = generateAsked(c.req.query('weeks'), c.req.query('week_of'));
  try {
    const preview = await previewTemplateGeneration(serviceCtx(c), t.id, asked);
    return renderPage(c, <PreviewView base={base} t={t} preview={preview} weeks={preview.weeks} weekOf={preview.week_start} />);
  } catch (err) {
    const r = refusalOf(err, FIELDS, BY_CODE);
    const message = Object.values(r.errors)[0] ?? r.message;
    return renderPage(
      c,
      <PreviewView base={base} t={t} preview={null} weeks={asked.weeks ?? GENERATE_WEEKS.default} weekOf={asked.week_of} error={message} />,
      r.status,
    );
  }
}

export async function postGenerate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const form = await c.req.parseBody();
  const asked = generateAsked(form.weeks, form.week_of);
  try {
    const r = await generateFromTemplate(serviceCtx(c), t.id, asked);
    const query = {
      weeks: String(r.weeks),
      created: r.created.map((s) => s.shift_date).join(','),
      skipped: r.skipped_reasons
        .filter((d) => d.reason === 'same_template')
        .map((d) => d.shift_date)
        .join(','),
      same: r.skipped_reasons
        .filter((d) => d.reason === 'same_shift')
        .map((d) => d.shift_date)
        .join(','),
    };
    return c.redirect(dashboardHref(base, templatePath(t.id, 'generated'), query), 303);
  } catch (err) {
    const r = refusalOf(err, FIELDS, BY_CODE);
    const message = Object.values(r.errors)[0] ?? r.message;
    return renderPage(
      c,
      <PreviewView base={base} t={t} preview={null} weeks={asked.weeks ?? GENERATE_WEEKS.default} weekOf={asked.week_of} error={message} />,
      r.status,
    );
  }
}

/** Dates from the result's address: only well-formed dates, at most a generate's worth (12 weeks). */
function datesOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .filter((d) => isValidDate(d))
    .slice(0, GENERATE_WEEKS.max * 7);
}

/** After generating: what was created and what was skipped (the result's dates travel in the redirect). */
export async function renderGenerated(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const created = datesOf(c.req.query('created'));
  const skipped = [
    ...datesOf(c.req.query('skipped')).map((d) => ({ shift_date: d, reason: 'same_template' as const })),
    ...datesOf(c.req.query('same')).map((d) => ({ shift_date: d, reason: 'same_shift' as const })),
  ].sort((a, b) => a.shift_date.localeCompare(b.shift_date));
  const summary = `${created.length === 1 ? '1 shift was' : `${created.length} shifts were`} created from “${t.label}”.`;
  return renderPage(
    c,
    <AppShell base={base} title={`Generated “${t.label}”`} current="/dashboard/templates" notice={summary}>
      <Card title={`Created (${created.length})`}>
        {created.length ? <DateList dates={created} t={t} label="Shifts created" /> : <p class="empty">Nothing new was created.</p>}
      </Card>
      <Card title={`Skipped, already there (${skipped.length})`}>
        {skipped.length ? <SkippedList skipped={skipped} t={t} /> : <p class="empty">None: every date was free.</p>}
      </Card>
      <p class="actions">
        <a class="button button-primary" href={dashboardHref(base, '/dashboard/schedule', { date: created[0] })}>
          See them in the schedule
        </a>
        <a class="button button-secondary" href={dashboardHref(base, '/dashboard/templates')}>
          Back to the templates
        </a>
      </p>
      <Notice kind="info">
        <p>Broadcasts are open to your crew now; a targeted shifter is asked for each shift.</p>
      </Notice>
    </AppShell>,
  );
}
