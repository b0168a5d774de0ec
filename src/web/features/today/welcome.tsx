import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { createBusiness, createBusinessInput, createShifterProfile } from '@/services/accounts';
import { Card, CsrfField, IdempotencyField, SubmitButton, TextField } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase, SHIFTER_HOME } from '../dashboard/context';
import { refusalOf, schemaRefusal } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { listedZone, ZoneOptions } from '@/web/time-zones';

/**
 * The Welcome page ({app_url}/dashboard for a person who acts for no business, or
 * /dashboard?side=business): create a business here (its name and the time zone its shifts are in,
 * through the same service as the API, with the person as actor), or go to the shifter side (or start
 * it, for a person without one). The form posts to /dashboard and lands on the new business's Today.
 */

type Field = 'name' | 'timezone';
const FIELDS: readonly Field[] = ['name', 'timezone'];

/** The page's words for a refused field, whatever the service said (its messages are written for programs). */
const FIELD_WORDS: Record<Field, string> = {
  name: 'Enter the business’s name, up to 120 characters.',
  timezone: 'Choose the time zone the business’s shifts are in.',
};

/** The visitor's zone as Cloudflare places them (absent locally and in tests), when it is one the list offers. */
function visitorZone(c: Context<AppEnv>): string {
  const cf = c.req.raw.cf as { timezone?: unknown } | undefined;
  const zone = typeof cf?.timezone === 'string' ? cf.timezone : '';
  return (zone ? listedZone(zone) : null) ?? 'UTC';
}

/**
 * The time zone select. Its island (`time-zone`) chooses the browser's own zone when the person has
 * not chosen one yet (`pick`); without script the visitor's zone, or UTC, stays chosen.
 */
function ZoneField({ value, error, pick }: { value: string; error?: string | undefined; pick: boolean }) {
  const id = 'field-timezone';
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div class="field" data-island="time-zone" data-props={JSON.stringify({ pick })}>
      <label for={id}>Time zone</label>
      <select id={id} name="timezone" required aria-describedby={describedBy} aria-invalid={error ? 'true' : undefined}>
        <ZoneOptions value={value} />
      </select>
      <p class="hint" id={`${id}-hint`}>
        Shift dates and times are in this zone. The zone of this device is chosen for you when the page can tell it.
      </p>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface WelcomeForm {
  name: string;
  timezone: string;
  idem?: string | undefined;
  /** The person chose the zone already (a re-shown form): the island leaves it. */
  chosen: boolean;
}

function WelcomeView({
  base,
  form,
  errors = {},
  error,
}: {
  base: DashboardBase;
  form: WelcomeForm;
  errors?: Partial<Record<Field, string>>;
  error?: string | undefined;
}) {
  const island = WEB_ENTRIES.islands['time-zone'];
  return (
    <AppShell base={base} title="Welcome" error={error} scripts={island ? [island.js] : []}>
      <p>You do not run a business on Shiftmarket yet. Create one here to post shifts, or work shifts on the shifter side.</p>
      <div class="grid">
        <Card title="Create your business">
          <form method="post" action="/dashboard" class="stack">
            <CsrfField token={base.csrfToken} />
            <IdempotencyField value={form.idem} />
            <input type="hidden" name="start" value="business" />
            <TextField
              label="Business name"
              name="name"
              value={form.name}
              required
              maxLength={120}
              autocomplete="off"
              error={errors.name}
              autofocus={Boolean(errors.name)}
            />
            <ZoneField value={form.timezone} error={errors.timezone} pick={!form.chosen} />
            <div class="actions">
              <SubmitButton>Create the business</SubmitButton>
            </div>
          </form>
          <p class="muted">
            The address, pay and clock-in rules come later, in the business’s settings. Joining someone else’s business instead? Ask its
            owner to invite you as a teammate: the invitation comes by email.
          </p>
        </Card>
        <Card title="Work shifts">
          {base.shifterId ? (
            <>
              <p>Find shifts, answer requests and clock in on your shifter side.</p>
              <p>
                <a class="button button-secondary" href={SHIFTER_HOME}>
                  Open the shifter side
                </a>
              </p>
            </>
          ) : (
            <>
              <p>Work shifts for the businesses whose crew you join: find them, answer requests and clock in.</p>
              <form method="post" action="/dashboard">
                <CsrfField token={base.csrfToken} />
                <IdempotencyField />
                <input type="hidden" name="start" value="shifter" />
                <SubmitButton variant="secondary">Start working shifts</SubmitButton>
              </form>
            </>
          )}
        </Card>
      </div>
      <p>
        <a href="/account">Your account</a>
      </p>
    </AppShell>
  );
}

/** The Welcome page for a person without a business (renderHome's answer when there is no business to show). */
export function renderWelcome(
  c: Context<AppEnv>,
  base: DashboardBase,
  extra: { form?: WelcomeForm; errors?: Partial<Record<Field, string>>; error?: string; status?: ContentfulStatusCode } = {},
): Promise<Response> {
  const form = extra.form ?? { name: '', timezone: visitorZone(c), chosen: false };
  return renderPage(c, <WelcomeView base={base} form={form} errors={extra.errors} error={extra.error} />, extra.status ?? 200);
}

/**
 * POST /dashboard: the Welcome page's two forms. `start=business` creates the business (the person
 * owns it) and opens its Today; `start=shifter` adds the shifter side to the account and opens it.
 * Both carry an idempotency key (formIdempotency), so a form sent twice acts once.
 */
export async function postWelcome(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  const ctx = serviceCtx(c);
  if (field('start', 16) === 'shifter') {
    try {
      await createShifterProfile(ctx, {});
    } catch (err) {
      // Already a shifter (another tab got there first): the shifter side is there to open.
      if (!(err instanceof AppError && err.code === 'PROFILE-EXISTS-ERR')) throw err;
    }
    return c.redirect(SHIFTER_HOME, 303);
  }
  const form: WelcomeForm = { name: field('name', 200), timezone: field('timezone', 64), idem: field('_idem', 255), chosen: true };
  const again = async (errors: Partial<Record<Field, string>>, status: ContentfulStatusCode) => {
    const words = Object.fromEntries(Object.keys(errors).map((f) => [f, FIELD_WORDS[f as Field]]));
    return renderWelcome(c, await dashboardBase(c), {
      form,
      errors: words,
      error: 'The business was not created: see the form below.',
      status,
    });
  };
  const parsed = createBusinessInput.safeParse({ name: form.name, timezone: form.timezone });
  if (!parsed.success) return again(schemaRefusal(parsed.error, FIELDS).errors, 400);
  let id: string;
  try {
    id = (await createBusiness(ctx, parsed.data)).id;
  } catch (err) {
    const r = refusalOf(err, FIELDS);
    if (!Object.keys(r.errors).length) return renderWelcome(c, await dashboardBase(c), { form, error: r.message, status: r.status });
    return again(r.errors, r.status);
  }
  return c.redirect(`/dashboard?${new URLSearchParams({ business_id: id, notice: 'business_created' })}`, 303);
}
