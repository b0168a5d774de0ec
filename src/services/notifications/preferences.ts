import { and, eq, inArray } from 'drizzle-orm';
import { type BatchItem, runBatch } from '../../db/client';
import { businesses, notificationPreferences, notificationSettings, shifters } from '../../db/schema';
import { type ServiceContext, requirePerson } from '../kernel';
import {
  CATALOG,
  type CatalogEntry,
  GROUP_LABELS,
  groupScope,
  NOTIFICATION_GROUPS,
  type NotificationGroup,
  OUTBOUND_CHANNELS,
  type OutboundChannel,
} from './catalog';
import type { QuietHours } from './quiet-hours';
import type { NotificationPreferences, UpdatePreferencesInput } from './schemas';

/** A user's choices, keyed `<scope>|<channel>` (scope: a kind, or `group:<name>`). */
export type Choices = Map<string, boolean>;
const key = (scope: string, channel: OutboundChannel) => `${scope}|${channel}`;

/** The channels in effect for one kind: the kind's own choice, else its group's, else the catalog default. */
export function effectiveChannels(entry: CatalogEntry, choices: Choices): Record<OutboundChannel, boolean> {
  const out = { push: false, email: false, sms: false };
  for (const ch of OUTBOUND_CHANNELS) {
    out[ch] = choices.get(key(entry.kind, ch)) ?? choices.get(key(groupScope(entry.group), ch)) ?? entry.defaults[ch];
  }
  return out;
}

/** Where a user's quiet hours are read when they never chose a zone: their shifter zone, else their default business's, else UTC. */
export async function defaultTimezone(ctx: ServiceContext, userId: string): Promise<string> {
  const [s] = await ctx.db.select({ tz: shifters.timezone }).from(shifters).where(eq(shifters.user_id, userId)).limit(1);
  if (s?.tz) return s.tz;
  const [b] = await ctx.db
    .select({ tz: businesses.timezone })
    .from(businesses)
    .where(and(eq(businesses.user_id, userId), eq(businesses.is_default, true)))
    .limit(1);
  return b?.tz ?? 'UTC';
}

/** What the delivery side needs of some users: their choices for one kind, and their quiet hours. */
export async function settingsOf(
  ctx: ServiceContext,
  userIds: string[],
  entry: CatalogEntry,
): Promise<{ choices: Map<string, Choices>; quiet: Map<string, QuietHours> }> {
  const choices = new Map<string, Choices>();
  const quiet = new Map<string, QuietHours>();
  if (!userIds.length) return { choices, quiet };
  const [prefs, settings] = await Promise.all([
    ctx.db
      .select()
      .from(notificationPreferences)
      .where(
        and(
          inArray(notificationPreferences.user_id, userIds),
          inArray(notificationPreferences.scope, [entry.kind, groupScope(entry.group)]),
        ),
      ),
    ctx.db.select().from(notificationSettings).where(inArray(notificationSettings.user_id, userIds)),
  ]);
  for (const p of prefs) {
    const m = choices.get(p.user_id) ?? new Map<string, boolean>();
    m.set(key(p.scope, p.channel), p.enabled);
    choices.set(p.user_id, m);
  }
  for (const s of settings) {
    if (s.quiet_start && s.quiet_end) quiet.set(s.user_id, { start: s.quiet_start, end: s.quiet_end, timezone: s.timezone });
  }
  return { choices, quiet };
}

/** GET /v1/notifications/preferences: the catalog with the caller's channels in effect, quiet hours and zone. */
export async function getPreferences(ctx: ServiceContext): Promise<NotificationPreferences> {
  const actor = requirePerson(ctx);
  const [prefs, [settings]] = await Promise.all([
    ctx.db.select().from(notificationPreferences).where(eq(notificationPreferences.user_id, actor.userId)),
    ctx.db.select().from(notificationSettings).where(eq(notificationSettings.user_id, actor.userId)).limit(1),
  ]);
  const choices: Choices = new Map(prefs.map((p) => [key(p.scope, p.channel), p.enabled]));
  return {
    timezone: settings?.timezone ?? (await defaultTimezone(ctx, actor.userId)),
    quiet_hours: settings?.quiet_start && settings.quiet_end ? { start: settings.quiet_start, end: settings.quiet_end } : null,
    kinds: [...CATALOG.values()].map((e) => ({
      kind: e.kind,
      group: e.group,
      label: e.label,
      urgent: e.urgent,
      owner_only: e.audience === 'owner',
      channels: { in_app: true as const, ...effectiveChannels(e, choices) },
    })),
    groups: NOTIFICATION_GROUPS.map((g) => ({ group: g, label: GROUP_LABELS[g] })),
    overrides: prefs
      .filter((p) => p.scope.startsWith('group:') || CATALOG.has(p.scope))
      .map((p) => ({
        kind: p.scope.startsWith('group:') ? null : p.scope,
        group: p.scope.startsWith('group:') ? (p.scope.slice(6) as NotificationGroup) : null,
        channel: p.channel,
        enabled: p.enabled,
      })),
  };
}

/**
 * PUT /v1/notifications/preferences: changes what is named and leaves the rest. One batch: the
 * settings row (its zone filled from the profile the first time) and each channel choice, set or
 * removed (`enabled: null`).
 */
export async function updatePreferences(ctx: ServiceContext, input: UpdatePreferencesInput): Promise<NotificationPreferences> {
  const actor = requirePerson(ctx);
  const now = ctx.now();
  const statements: BatchItem[] = [];
  if (input.timezone !== undefined || input.quiet_hours !== undefined) {
    const [existing] = await ctx.db.select().from(notificationSettings).where(eq(notificationSettings.user_id, actor.userId)).limit(1);
    const timezone = input.timezone ?? existing?.timezone ?? (await defaultTimezone(ctx, actor.userId));
    const quiet =
      input.quiet_hours === undefined
        ? { quiet_start: existing?.quiet_start ?? null, quiet_end: existing?.quiet_end ?? null }
        : { quiet_start: input.quiet_hours?.start ?? null, quiet_end: input.quiet_hours?.end ?? null };
    const row = { user_id: actor.userId, timezone, ...quiet, updated_at: now };
    statements.push(
      ctx.db
        .insert(notificationSettings)
        .values(row)
        .onConflictDoUpdate({
          target: notificationSettings.user_id,
          set: { timezone: row.timezone, quiet_start: row.quiet_start, quiet_end: row.quiet_end, updated_at: now },
        }),
    );
  }
  // The last word on a scope and channel counts when the same one is named twice.
  const changes = new Map<string, { scope: string; channel: OutboundChannel; enabled: boolean | null }>();
  for (const c of input.channels ?? []) {
    const scope = c.kind ?? groupScope(c.group as NotificationGroup);
    changes.set(key(scope, c.channel), { scope, channel: c.channel, enabled: c.enabled });
  }
  for (const c of changes.values()) {
    const where = and(
      eq(notificationPreferences.user_id, actor.userId),
      eq(notificationPreferences.scope, c.scope),
      eq(notificationPreferences.channel, c.channel),
    );
    statements.push(
      c.enabled === null
        ? ctx.db.delete(notificationPreferences).where(where)
        : ctx.db
            .insert(notificationPreferences)
            .values({ user_id: actor.userId, scope: c.scope, channel: c.channel, enabled: c.enabled, updated_at: now })
            .onConflictDoUpdate({
              target: [notificationPreferences.user_id, notificationPreferences.scope, notificationPreferences.channel],
              set: { enabled: c.enabled, updated_at: now },
            }),
    );
  }
  await runBatch(ctx.db, statements);
  return getPreferences(ctx);
}
