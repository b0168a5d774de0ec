// The templates list (/dashboard/templates): each template's card, the new-template form, and the
// posts that create a template and pause or activate one.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import {
  createTemplate,
  createTemplateInput,
  GENERATE_WEEKS,
  listTemplates,
  type TemplateView,
  updateTemplate,
} from '@/services/templates';
import { Card, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { noticeOf, type Refusal, refusalOf, schemaRefusal } from '@/web/features/dashboard/refusals';
import { AppShell } from '@/web/features/dashboard/shell';
import type { ShiftFormLookups } from '@/web/features/posting/shift-fields';
import { formatMoney, shiftHours } from '@/web/format';
import { renderPage } from '@/web/render';
import { PreviewForm, TemplateForm } from './templates-form';
import { NotFound, templateOf } from './templates-found';
import {
  BY_CODE,
  daysText,
  EMPTY,
  FIELDS,
  type FieldName,
  inputOf,
  LABELS,
  lookups,
  missingShifter,
  sentValues,
  type TemplateFormValues,
  templatePath,
} from './templates-values';

/** Who a template's shifts go to, in words. */
function goesTo(t: TemplateView, crew: ShiftFormLookups['crew']): string {
  if (t.is_broadcast) return 'Broadcast to the crew';
  const who = crew.find((s) => s.id === t.default_shifter_id);
  return who ? `For ${who.name}` : 'For a shifter no longer in your crew';
}

function TemplateCard({ base, t, look }: { base: DashboardBase; t: TemplateView; look: ShiftFormLookups }) {
  const role = look.roles.find((r) => r.id === t.shiftrole_id)?.label ?? 'Shift';
  const headId = `tpl-${t.id}`;
  return (
    <li class="card template-card" aria-labelledby={headId}>
      <div class="template-head">
        <h3 id={headId}>{t.label}</h3>
        <span class={`badge${t.is_active ? ' badge-ok' : ''}`}>{t.is_active ? 'Active' : 'Paused'}</span>
      </div>
      <p>
        {`${daysText(t.days_of_week)} · ${shiftHours(t.shift_in, t.shift_out)} · ${role} · ${formatMoney(t.hourly_rate, t.currency_id)} an hour`}
      </p>
      <p class="muted">
        {goesTo(t, look.crew)}
        {t.is_flexible ? ' · flexible hours' : ''}
      </p>
      {t.is_active ? <PreviewForm base={base} t={t} /> : <p class="aside">Activate it to generate shifts.</p>}
      <div class="actions">
        <a class="button button-secondary" href={dashboardHref(base, templatePath(t.id, 'edit'))}>
          Edit<span class="visually-hidden">{` ${t.label}`}</span>
        </a>
        <form method="post" action={dashboardHref(base, templatePath(t.id, 'active'))} class="inline-form">
          <CsrfField token={base.csrfToken} />
          <IdempotencyField />
          <input type="hidden" name="is_active" value={t.is_active ? '0' : '1'} />
          <SubmitButton variant="secondary">
            {t.is_active ? 'Pause' : 'Activate'}
            <span class="visually-hidden">{` ${t.label}`}</span>
          </SubmitButton>
        </form>
        <a class="button button-danger" href={dashboardHref(base, templatePath(t.id, 'delete'))}>
          Delete<span class="visually-hidden">{` ${t.label}`}</span>
        </a>
      </div>
    </li>
  );
}

const NOTICES = {
  created: 'The template was saved. Preview its shifts below when you are ready to generate them.',
  updated: 'The template was changed. Shifts generated before keep their times.',
  paused: 'The template is paused: generating is off until you activate it.',
  activated: 'The template is active again.',
  deleted: 'The template was deleted. The shifts it generated stay as they are.',
} as const;

interface ListProps {
  base: DashboardBase;
  templates: TemplateView[];
  look: ShiftFormLookups;
  values?: TemplateFormValues;
  refusal?: Refusal<FieldName> | undefined;
  notice?: string | undefined;
  idem?: string | undefined;
}

function TemplatesView({ base, templates, look, values = EMPTY, refusal, notice, idem }: ListProps) {
  return (
    <AppShell base={base} title="Templates" current="/dashboard/templates" notice={notice} error={refusal?.message}>
      <p class="aside">
        A template is a weekly shift (the same days, times, role and rate). Generate it up to {GENERATE_WEEKS.max} weeks ahead: you see what
        will be created, and what is skipped because it is already there, before anything is posted.
      </p>
      <section aria-labelledby="templates-head">
        <h2 id="templates-head">Your templates</h2>
        {templates.length ? (
          <ul class="template-list">
            {templates.map((t) => (
              <TemplateCard base={base} t={t} look={look} />
            ))}
          </ul>
        ) : (
          <p class="empty">No templates yet. Make your first one below, e.g. “Weekday lunch, Monday to Friday 11:00–15:00”.</p>
        )}
      </section>
      <Card title="New template">
        <TemplateForm
          base={base}
          action="/dashboard/templates"
          look={look}
          values={values}
          errors={refusal?.errors}
          submit="Save the template"
          idem={idem}
        />
      </Card>
    </AppShell>
  );
}

export async function renderTemplates(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const [list, look] = await Promise.all([listTemplates(ctx, base.business.id), lookups(c, base)]);
  return renderPage(c, <TemplatesView base={base} templates={list.data} look={look} notice={noticeOf(c, NOTICES)} />);
}

export async function postTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  const b = base.business;
  if (!b) return c.redirect('/dashboard', 303);
  const sent = await sentValues(c);
  const ctx = serviceCtx(c);
  const again = async (refusal: Refusal<FieldName>) => {
    const [list, look] = await Promise.all([listTemplates(ctx, b.id), lookups(c, base)]);
    return renderPage(
      c,
      <TemplatesView base={base} templates={list.data} look={look} values={sent} refusal={refusal} idem={sent.idem} />,
      refusal.status,
    );
  };
  const parsed = createTemplateInput.safeParse({ business_id: b.id, ...inputOf(sent) });
  if (!parsed.success) return again(schemaRefusal(parsed.error, FIELDS, LABELS));
  const missing = missingShifter(sent);
  if (missing) return again(missing);
  try {
    await createTemplate(ctx, parsed.data);
  } catch (err) {
    return again(refusalOf(err, FIELDS, BY_CODE));
  }
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: 'created' }), 303);
}

/** Pause or activate: reversible at once, so no confirmation. */
export async function postTemplateActive(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const active = (await c.req.parseBody()).is_active === '1';
  const ctx = serviceCtx(c);
  try {
    await updateTemplate(ctx, t.id, { is_active: active });
  } catch (err) {
    const refusal = refusalOf(err, FIELDS, BY_CODE);
    const [list, look] = await Promise.all([listTemplates(ctx, base.business.id), lookups(c, base)]);
    const message = Object.values(refusal.errors)[0] ?? refusal.message;
    return renderPage(
      c,
      <TemplatesView base={base} templates={list.data} look={look} refusal={{ ...refusal, errors: {}, message }} />,
      refusal.status,
    );
  }
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: active ? 'activated' : 'paused' }), 303);
}
