import type { NotificationPreferences, OutboundChannel } from '@/services/notifications';
import { OUTBOUND_CHANNELS } from '@/services/notifications';
import { groupField, groupState, kindField, mixedWords, wasField } from './notification-prefs.model';

/**
 * The channels of each notification as a short list of grouped switches (notification-prefs.model.ts):
 * a group (Shifts offered to you, Changes to your shifts, …) with one switch per channel, each at least
 * 44 px, a mixed group saying so, and every kind's own switches under "Choose for each". Checkboxes
 * drawn as switches (role="switch"), so the plain form works without script; the `prefs` island keeps
 * a group and its kinds in step.
 */

export const CHANNEL_LABELS: Record<OutboundChannel, string> = { email: 'Email', push: 'Browser push', sms: 'Text message' };
/** The channels in the order the switches show them: email first, the one everyone has. */
const CHANNEL_ORDER: readonly OutboundChannel[] = ['email', 'push', 'sms'].filter((c): c is OutboundChannel =>
  (OUTBOUND_CHANNELS as readonly string[]).includes(c),
);

/** A group's title in people's words (its description under it is the catalog's). */
const GROUP_TITLES: Record<string, string> = {
  shift_offers: 'Shifts offered to you',
  shift_updates: 'Changes to your shifts',
  connections: 'Connections',
  team: 'Your team',
  messages: 'Messages',
  reviews: 'Reviews',
  money: 'Payments',
  account: 'Account',
};

/** "Shift offers: requests to you and …" → "Requests to you and …" (the catalog's label after its name). */
function describe(label: string): string {
  const i = label.indexOf(':');
  const rest = i < 0 ? label : label.slice(i + 1).trim();
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

type Kind = NotificationPreferences['kinds'][number];

function Switch({
  id,
  name,
  checked,
  label,
  context,
  note,
  mixed,
  data,
}: {
  id: string;
  name: string;
  checked: boolean;
  label: string;
  /** Said to a screen reader before the label: what the switch is for. */
  context: string;
  note?: string | undefined;
  mixed?: boolean;
  data: Record<string, string>;
}) {
  return (
    <div class="switch-row">
      <label for={id}>
        <span class="visually-hidden">{`${context}: `}</span>
        {label}
        {note ? (
          <span class="switch-note" id={`${id}-note`}>
            {note}
          </span>
        ) : null}
      </label>
      <input
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox states its checked state itself (aria-checked would go stale without script)
        role="switch"
        class={mixed ? 'switch switch-mixed' : 'switch'}
        id={id}
        name={name}
        value="on"
        checked={checked}
        aria-describedby={note ? `${id}-note` : undefined}
        {...data}
      />
    </div>
  );
}

const slug = (s: string) => s.replace(/[^a-z0-9]+/gi, '-');

function GroupSwitches({ group, label, kinds, channels }: { group: string; label: string; kinds: Kind[]; channels: Map<string, boolean> }) {
  const title = GROUP_TITLES[group] ?? label;
  return (
    <fieldset class="pref-group" data-pref-group={group}>
      <legend>{title}</legend>
      <p class="hint">{describe(label)}</p>
      <div class="pref-switches">
        {CHANNEL_ORDER.map((ch) => {
          const values = kinds.map((k) => channels.get(`${k.kind}:${ch}`) ?? false);
          const state = groupState(values);
          return (
            <>
              <Switch
                id={`grp-${slug(group)}-${ch}`}
                name={groupField(group, ch)}
                checked={state === 'on'}
                mixed={state === 'mixed'}
                label={CHANNEL_LABELS[ch]}
                context={title}
                note={state === 'mixed' ? mixedWords(values) : undefined}
                data={{ 'data-group-switch': ch }}
              />
              <input type="hidden" name={wasField(group, ch)} value={state} data-was={ch} />
            </>
          );
        })}
      </div>
      <details class="pref-each">
        <summary>{kinds.length === 1 ? 'Choose for its one kind' : `Choose for each of its ${kinds.length} kinds`}</summary>
        {kinds.map((k) => (
          <fieldset class="pref-kind">
            <legend>
              {k.label}
              {k.urgent ? <span class="badge badge-warn"> Urgent</span> : null}
            </legend>
            <div class="pref-switches">
              {CHANNEL_ORDER.map((ch) => (
                <Switch
                  id={`kind-${slug(k.kind)}-${ch}`}
                  name={kindField(k.kind, ch)}
                  checked={channels.get(`${k.kind}:${ch}`) ?? false}
                  label={CHANNEL_LABELS[ch]}
                  context={k.label}
                  data={{ 'data-kind-switch': ch }}
                />
              ))}
            </div>
          </fieldset>
        ))}
      </details>
    </fieldset>
  );
}

/** Every group with kinds shown to the person, in the catalog's order. */
export function PreferenceSwitches({
  groups,
  kinds,
  channels,
}: {
  groups: NotificationPreferences['groups'];
  kinds: Kind[];
  channels: Map<string, boolean>;
}) {
  return (
    <div class="pref-groups">
      {groups.map((g) => {
        const rows = kinds.filter((k) => k.group === g.group);
        return rows.length ? <GroupSwitches group={g.group} label={g.label} kinds={rows} channels={channels} /> : null;
      })}
    </div>
  );
}
