// The template a /dashboard/templates/:id/… page is about, and the page shown when there is none.
import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { listTemplates, type TemplateView } from '@/services/templates';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';

/** The business's template by id: one of another business (or none) is not found on this page. */
export async function templateOf(c: Context<AppEnv>, base: DashboardBase): Promise<TemplateView | null> {
  const id = c.req.param('id') ?? '';
  const list = await listTemplates(serviceCtx(c), base.business!.id);
  return list.data.find((t) => t.id === id) ?? null;
}

export function NotFound({ base }: { base: DashboardBase }) {
  return (
    <AppShell base={base} title="Template not found" current="/dashboard/templates">
      <p>This template does not exist, or it belongs to another business.</p>
      <p>
        <a href={dashboardHref(base, '/dashboard/templates')}>Back to the templates</a>
      </p>
    </AppShell>
  );
}
