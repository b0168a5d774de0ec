import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import {
  getPreferences,
  listNotifications,
  listPushSubscriptions,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationPreferences,
  type NotificationView,
  OUTBOUND_CHANNELS,
  type OutboundChannel,
  updatePreferences,
  updatePreferencesInput,
} from '@/services/notifications';
import { CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { dateTimeIn } from '@/web/format';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { type DashboardBase, dashboardBase } from '../dashboard/context';
import { noticeOf } from '../dashboard/refusals';
import { AppShell } from '../dashboard/shell';
import { groupDecides, groupField, kindField, wasField } from './notification-prefs.model';
import { notificationTarget } from './notification-target.model';
import { PreferenceSwitches } from './preference-switches';
import { ZoneOptions } from '@/web/time-zones';

/*
 * Notifications (spec 4.7): the person's in-app notifications, newest first, marked read one by one
 * or all at once; and their preferences (which channels each kind uses, quiet hours, the zone those
 * are read in), with browser push turned on from the same page (the `push` island).
 */

const PAGE_SIZE = 20;

const styles = () => {
  const css = WEB_ENTRIES.islands.thread.css;
  return css ? [css] : [];
};

/** Where a notification leads, when it is about something with a page. */
function targetOf(n: NotificationView): { href: string; label: string } | null {
  const target = notificationTarget(n.data);
  return target ? { href: target.path, label: target.label } : null;
}

function PostButton({
  csrf,
  action,
  label,
  variant = 'secondary',
  hidden = {},
}: {
  csrf: string;
  action: string;
  label: string;
  variant?: 'primary' | 'secondary';
  hidden?: Record<string, string>;
}) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField token={csrf} />
      <IdempotencyField />
      {Object.entries(hidden).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <SubmitButton variant={variant}>{label}</SubmitButton>
    </form>
  );
}

/** GET /notifications: newest first, twenty to a page; `?unread=1` shows the unread ones only. */
export async function renderNotifications(c: Context<AppEnv>): Promise<Response> {
  const ctx = serviceCtx(c);
  const unread = c.req.query('unread') === '1';
  const cursor = c.req.query('cursor') || undefined;
  const [base, list, zone] = await Promise.all([
    dashboardBase(c),
    listNotifications(ctx, { limit: PAGE_SIZE, unread, ...(cursor ? { cursor } : {}) }).catch((err) => {
      if (err instanceof AppError && err.code === 'VALIDATION-ERR') return null;
      throw err;
    }),
    getPreferences(ctx).then((p) => p.timezone),
  ]);
  if (!list) return c.redirect('/notifications', 303);
  const notice = noticeOf(c, { read: 'Marked as read.', all_read: 'Everything is marked as read.' });
  const here = unread ? '/notifications?unread=1' : '/notifications';
  return renderPage(
    c,
    <AppShell
      base={base}
      title="Notifications"
      side="shared"
      current="/notifications"
      notice={notice}
      styles={styles()}
      action={<a href="/notifications/preferences">Preferences</a>}
    >
      <div class="row-split">
        <nav class="filter-nav" aria-label="Show">
          <ul>
            <li>
              <a href="/notifications" aria-current={unread ? undefined : 'page'}>
                All
              </a>
            </li>
            <li>
              <a href="/notifications?unread=1" aria-current={unread ? 'page' : undefined}>
                Unread ({list.unread_count})
              </a>
            </li>
          </ul>
        </nav>
        {list.unread_count > 0 ? (
          <PostButton csrf={base.csrfToken} action="/notifications/read_all" label="Mark all as read" hidden={{ back: here }} />
        ) : null}
      </div>
      {list.data.length === 0 ? (
        <p class="empty">{unread ? 'Nothing unread.' : 'No notifications yet. What needs your attention shows up here.'}</p>
      ) : (
        <ul class="notification-list">
          {list.data.map((n) => {
            const target = targetOf(n);
            return (
              <li class={n.read_at ? undefined : 'notification-unread'}>
                <div class="notification-text">
                  <h2>
                    {n.read_at ? null : <span class="visually-hidden">Unread: </span>}
                    {n.title}
                  </h2>
                  {n.body ? <p>{n.body}</p> : null}
                  <p class="muted">
                    <time datetime={n.created_at}>{dateTimeIn(n.created_at, zone)}</time>
                    {target ? (
                      <>
                        {' · '}
                        <a href={target.href}>{target.label}</a>
                      </>
                    ) : null}
                  </p>
                </div>
                {n.read_at ? null : (
                  <PostButton
                    csrf={base.csrfToken}
                    action={`/notifications/${encodeURIComponent(n.id)}/read`}
                    label="Mark read"
                    hidden={{ back: here }}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
      {list.next_cursor ? (
        <p>
          <a href={`/notifications?${new URLSearchParams({ ...(unread ? { unread: '1' } : {}), cursor: list.next_cursor })}`}>
            Older notifications
          </a>
        </p>
      ) : null}
    </AppShell>,
  );
}

/** Back to the list the person was on (only our own two lists; never an address from the form). */
const backTo = (back: string) => (back === '/notifications?unread=1' ? '/notifications?unread=1&' : '/notifications?');

/** POST /notifications/{id}/read */
export async function postMarkRead(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  try {
    await markNotificationRead(serviceCtx(c), c.req.param('id')!);
  } catch (err) {
    // Gone or another's: nothing to mark; the list says what is there.
    if (!(err instanceof AppError && err.code === 'NOTIFICATION-NOT-FND-ERR')) throw err;
  }
  return c.redirect(`${backTo(field('back', 40))}notice=read`, 303);
}

/** POST /notifications/read_all */
export async function postMarkAllRead(c: Context<AppEnv>): Promise<Response> {
  const field = await formFields(c);
  await markAllNotificationsRead(serviceCtx(c));
  return c.redirect(`${backTo(field('back', 40))}notice=all_read`, 303);
}

// ---- Preferences ----

interface PrefsForm {
  timezone: string;
  quietOn: boolean;
  quietStart: string;
  quietEnd: string;
  /** `<kind>:<channel>` → on. */
  channels: Map<string, boolean>;
}

type PrefsField = 'timezone' | 'quiet_start' | 'quiet_end';

function formOf(p: NotificationPreferences): PrefsForm {
  return {
    timezone: p.timezone,
    quietOn: p.quiet_hours !== null,
    quietStart: p.quiet_hours?.start ?? '22:00',
    quietEnd: p.quiet_hours?.end ?? '07:00',
    channels: new Map(p.kinds.flatMap((k) => OUTBOUND_CHANNELS.map((ch) => [`${k.kind}:${ch}`, k.channels[ch]] as const))),
  };
}

/** Owner-only kinds are shown to people who own a business; the rest to everyone. */
const kindsFor = (base: DashboardBase, p: NotificationPreferences) =>
  p.kinds.filter((k) => !k.owner_only || base.businesses.some((b) => b.role === 'owner'));

function PreferencesPage({
  base,
  prefs,
  form,
  pushCount,
  notice,
  error,
  errors = {},
}: {
  base: DashboardBase;
  prefs: NotificationPreferences;
  form: PrefsForm;
  pushCount: number;
  notice?: string | undefined;
  error?: string | undefined;
  errors?: Partial<Record<PrefsField, string>>;
}) {
  const kinds = kindsFor(base, prefs);
  const island = WEB_ENTRIES.islands.push;
  return (
    <AppShell
      base={base}
      title="Notification preferences"
      side="shared"
      current="/notifications"
      notice={notice}
      error={error}
      scripts={[island.js, ...(WEB_ENTRIES.islands.prefs ? [WEB_ENTRIES.islands.prefs.js] : [])]}
      styles={styles()}
      action={<a href="/notifications">Back to notifications</a>}
    >
      <section class="card" aria-labelledby="push-heading" data-island="push" data-props={JSON.stringify({ subscribed: pushCount })}>
        <h2 id="push-heading">Browser notifications</h2>
        <p>
          {pushCount
            ? `Browser notifications are on for ${pushCount === 1 ? 'one browser' : `${pushCount} browsers`} of yours.`
            : 'Get notifications on this device even when Shiftmarket is not open.'}
        </p>
        <button type="button" class="button button-primary push-turn-on" hidden>
          Turn on browser notifications
        </button>{' '}
        <button type="button" class="button button-secondary push-turn-off" hidden>
          Turn off browser notifications on this device
        </button>
        <p class="push-status" role="status" />
      </section>

      <form method="post" action="/notifications/preferences" data-island="prefs" data-props="{}">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <fieldset>
          <legend>When and where</legend>
          <div class="form-grid">
            <div class="field">
              <label for="field-timezone">Time zone</label>
              <select
                id="field-timezone"
                name="timezone"
                aria-describedby={errors.timezone ? 'field-timezone-error' : 'field-timezone-hint'}
                aria-invalid={errors.timezone ? 'true' : undefined}
              >
                <ZoneOptions value={form.timezone} />
              </select>
              <p class="hint" id="field-timezone-hint">
                Quiet hours and the times on these pages are in this zone.
              </p>
              {errors.timezone ? (
                <p class="field-error" id="field-timezone-error">
                  {errors.timezone}
                </p>
              ) : null}
            </div>
          </div>
          <div class="choice">
            <input type="checkbox" id="field-quiet" name="quiet" value="on" checked={form.quietOn} />
            <label for="field-quiet">Quiet hours: hold everything that is not urgent until they end</label>
          </div>
          <div class="form-grid">
            <InputField label="Quiet from" name="quiet_start" type="time" value={form.quietStart} error={errors.quiet_start} />
            <InputField
              label="Until"
              name="quiet_end"
              type="time"
              value={form.quietEnd}
              error={errors.quiet_end}
              hint="The next morning when it is earlier than the start."
            />
          </div>
        </fieldset>
        <h2>Where they reach you</h2>
        <p class="hint">
          Everything is always in your list of notifications. A switch turns a whole group on or off; open "Choose for each" to set its
          kinds one by one. Saved together with the rest of this page.
        </p>
        <PreferenceSwitches groups={prefs.groups} kinds={kinds} channels={form.channels} />
        <div class="actions">
          <SubmitButton>Save preferences</SubmitButton>
        </div>
      </form>
    </AppShell>
  );
}

/** GET /notifications/preferences */
export async function renderPreferences(c: Context<AppEnv>): Promise<Response> {
  const ctx = serviceCtx(c);
  const [base, prefs, push] = await Promise.all([dashboardBase(c), getPreferences(ctx), listPushSubscriptions(ctx)]);
  return renderPage(
    c,
    <PreferencesPage
      base={base}
      prefs={prefs}
      form={formOf(prefs)}
      pushCount={push.data.length}
      notice={noticeOf(c, { saved: 'Preferences saved.' })}
    />,
  );
}

/**
 * POST /notifications/preferences: the zone, quiet hours and every channel box shown. Only what
 * differs from what the person had is sent to the service, so kinds left alone keep following their
 * group or the default. A refusal re-shows the form as sent, the reason beside its field.
 */
export async function postPreferences(c: Context<AppEnv>): Promise<Response> {
  const ctx = serviceCtx(c);
  const field = await formFields(c);
  const [base, prefs] = await Promise.all([dashboardBase(c), getPreferences(ctx)]);
  const sent: PrefsForm = {
    timezone: field('timezone', 64),
    quietOn: field('quiet') === 'on',
    quietStart: field('quiet_start', 8),
    quietEnd: field('quiet_end', 8),
    channels: new Map(),
  };
  const changes: Array<{ kind: string; channel: OutboundChannel; enabled: boolean }> = [];
  const shown = new Set(kindsFor(base, prefs).map((k) => k.kind));
  // A group's switch changed from the state it was shown in sets every kind of the group shown
  // (notification-prefs.model.ts groupDecides); otherwise each kind's own switch says.
  const byGroup = new Map<string, boolean | null>();
  for (const g of prefs.groups) {
    for (const ch of OUTBOUND_CHANNELS) {
      byGroup.set(`${g.group}:${ch}`, groupDecides(field(wasField(g.group, ch), 8), field(groupField(g.group, ch)) === 'on'));
    }
  }
  for (const k of prefs.kinds) {
    for (const ch of OUTBOUND_CHANNELS) {
      const key = `${k.kind}:${ch}`;
      if (!shown.has(k.kind)) {
        sent.channels.set(key, k.channels[ch]);
        continue;
      }
      const on = byGroup.get(`${k.group}:${ch}`) ?? field(kindField(k.kind, ch)) === 'on';
      sent.channels.set(key, on);
      if (on !== k.channels[ch]) changes.push({ kind: k.kind, channel: ch, enabled: on });
    }
  }
  const parsed = updatePreferencesInput.safeParse({
    timezone: sent.timezone,
    quiet_hours: sent.quietOn ? { start: sent.quietStart, end: sent.quietEnd } : null,
    channels: changes,
  });
  const push = await listPushSubscriptions(ctx);
  if (!parsed.success) {
    const errors: Partial<Record<PrefsField, string>> = {};
    let other: string | undefined;
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path;
      if (first === 'timezone') errors.timezone ??= 'Choose a time zone from the list (an IANA name such as America/New_York).';
      else if (first === 'quiet_hours') {
        const f: PrefsField = second === 'end' ? 'quiet_end' : 'quiet_start';
        errors[f] ??=
          issue.message === 'start and end must differ' ? 'Quiet hours must end at another time than they start.' : 'Give a time as HH:MM.';
      } else other ??= 'Too many changes at once: save a few groups at a time.';
    }
    return renderPage(
      c,
      <PreferencesPage
        base={base}
        prefs={prefs}
        form={sent}
        pushCount={push.data.length}
        errors={errors}
        error={other ?? 'Check the fields marked below.'}
      />,
      400,
    );
  }
  await updatePreferences(ctx, parsed.data);
  return c.redirect('/notifications/preferences?notice=saved', 303);
}
