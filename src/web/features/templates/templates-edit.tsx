// Changing and deleting one template: the edit page and its post, the delete confirmation and its post.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { deleteTemplate, type TemplateView, updateTemplate, updateTemplateInput } from '@/services/templates';
import { Card } from '@/web/components';
import { ConfirmPage } from '@/web/features/dashboard/confirm-page';
import { type DashboardBase, dashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { type Refusal, refusalOf, schemaRefusal } from '@/web/features/dashboard/refusals';
import { AppShell } from '@/web/features/dashboard/shell';
import type { ShiftFormLookups } from '@/web/features/posting/shift-fields';
import { shiftHours } from '@/web/format';
import { renderPage } from '@/web/render';
import { TemplateForm } from './templates-form';
import { NotFound, templateOf } from './templates-found';
import {
  BY_CODE,
  daysText,
  FIELDS,
  type FieldName,
  inputOf,
  LABELS,
  lookups,
  missingShifter,
  sentValues,
  type TemplateFormValues,
  templatePath,
  valuesOf,
} from './templates-values';

function EditView(p: {
  base: DashboardBase;
  t: TemplateView;
  look: ShiftFormLookups;
  values: TemplateFormValues;
  refusal?: Refusal<FieldName>;
  idem?: string;
}) {
  return (
    <AppShell base={p.base} title={`Edit “${p.t.label}”`} current="/dashboard/templates" error={p.refusal?.message}>
      <p class="aside">Changes apply to shifts generated from now on; shifts generated before keep their times.</p>
      <Card title="The template">
        <TemplateForm
          base={p.base}
          action={templatePath(p.t.id, 'edit')}
          look={p.look}
          values={p.values}
          errors={p.refusal?.errors}
          submit="Save the changes"
          idem={p.idem}
        />
      </Card>
      <p>
        <a href={dashboardHref(p.base, '/dashboard/templates')}>Back to the templates</a>
      </p>
    </AppShell>
  );
}

export async function renderEditTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  return renderPage(c, <EditView base={base} t={t} look={await lookups(c, base)} values={valuesOf(t)} />);
}

export async function postEditTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  const sent = await sentValues(c);
  const again = async (refusal: Refusal<FieldName>) =>
    renderPage(
      c,
      <EditView base={base} t={t} look={await lookups(c, base)} values={sent} refusal={refusal} idem={sent.idem} />,
      refusal.status,
    );
  const parsed = updateTemplateInput.safeParse(inputOf(sent));
  if (!parsed.success) return again(schemaRefusal(parsed.error, FIELDS, LABELS));
  const missing = missingShifter(sent);
  if (missing) return again(missing);
  try {
    await updateTemplate(serviceCtx(c), t.id, parsed.data);
  } catch (err) {
    return again(refusalOf(err, FIELDS, BY_CODE));
  }
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: 'updated' }), 303);
}

export async function renderDeleteTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  return renderPage(
    c,
    <ConfirmPage
      base={base}
      title="Delete a template"
      current="/dashboard/templates"
      action={templatePath(t.id, 'delete')}
      button="Delete the template"
      variant="danger"
      back="/dashboard/templates"
    >
      <p>{`Delete “${t.label}” (${daysText(t.days_of_week)}, ${shiftHours(t.shift_in, t.shift_out)})? The shifts it generated stay as they are; only the template goes.`}</p>
    </ConfirmPage>,
  );
}

export async function postDeleteTemplate(c: Context<AppEnv>): Promise<Response> {
  const base = await dashboardBase(c);
  if (!base.business) return c.redirect('/dashboard', 303);
  const t = await templateOf(c, base);
  if (!t) return renderPage(c, <NotFound base={base} />, 404);
  await deleteTemplate(serviceCtx(c), t.id);
  return c.redirect(dashboardHref(base, '/dashboard/templates', { notice: 'deleted' }), 303);
}
