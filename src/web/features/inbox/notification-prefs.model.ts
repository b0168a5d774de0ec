/**
 * The notification preferences as grouped switches (notifications.tsx, and its `prefs` island): one
 * switch per group of kinds and channel, which sets every kind of the group shown to the person; a
 * group whose kinds differ is "mixed" and says how many are on. Each kind keeps its own switch below,
 * under "Choose for each". The stored preferences and the API are the kinds' own, unchanged.
 */

export type GroupState = 'on' | 'off' | 'mixed';

/** A group's state from its kinds' switches (no kinds: off). */
export function groupState(values: readonly boolean[]): GroupState {
  const on = values.filter(Boolean).length;
  if (on === 0) return 'off';
  return on === values.length ? 'on' : 'mixed';
}

/** What a mixed group says beside its switch: "Mixed: 2 of 5 on". */
export const mixedWords = (values: readonly boolean[]): string => `Mixed: ${values.filter(Boolean).length} of ${values.length} on`;

/**
 * What a group's switch asks of its kinds on save, from the state it was shown in (`was`) and
 * whether it is on now: every kind on or off when it was changed, else null (the kinds' own switches
 * decide). A mixed group left off stays as it was; turned on, every kind is on. Without script the
 * group's switch wins over its kinds' when both were changed; with script the island keeps them in step.
 */
export function groupDecides(was: string, now: boolean): boolean | null {
  if (was === 'on') return now ? null : false;
  if (was === 'off' || was === 'mixed') return now ? true : null;
  return null;
}

/** Form field names: a group's switch, the state it was shown in, a kind's switch. */
export const groupField = (group: string, channel: string) => `grp:${group}:${channel}`;
export const wasField = (group: string, channel: string) => `was:${group}:${channel}`;
export const kindField = (kind: string, channel: string) => `ch:${kind}:${channel}`;
