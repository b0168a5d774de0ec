import { timeInZone } from '../../lib/shift-time';
import { toIso } from '../../lib/time';
import { type ActorWords, parse, type StoryLine, type StoryRecords } from './story-types';

/** "42 m from the venue", "1.3 km from the venue". */
function distanceWords(m: number | null): string {
  if (m === null) return 'no position sent';
  return m < 1000 ? `${Math.round(m)} m from the venue` : `${(m / 1000).toFixed(1)} km from the venue`;
}

/** A shift's punches as lines of its story: when, how far from the venue, outside the radius, the photo, offline. */
export function punchLines(
  r: StoryRecords,
  tz: string,
  shifter: string,
  actorOf: ActorWords,
  businessPerson: (userId: string | null | undefined) => string,
): StoryLine[] {
  const row = r.s.row;
  const radius = r.s.business.geofence_radius_m;
  const out: StoryLine[] = [];
  const sides = [
    {
      side: 'in' as const,
      at: row.shift_start_at,
      by: row.shift_start_by_id,
      distance: row.clock_in_distance_m,
      photo: row.clock_in_photo_url,
      received: row.clock_in_received_at,
      action: 'shift.clock_in',
    },
    {
      side: 'out' as const,
      at: row.shift_end_at,
      by: row.shift_end_by_id,
      distance: row.clock_out_distance_m,
      photo: row.clock_out_photo_url,
      received: row.clock_out_received_at,
      action: 'shift.clock_out',
    },
  ];
  for (const p of sides) {
    if (p.at === null) continue;
    const a = r.audits.find((x) => x.action === p.action && x.subject_id === row.id);
    const punchedAs = parse(a?.data ?? null).punched_as;
    const parts = [distanceWords(p.distance)];
    const outside = radius !== null && p.distance !== null && p.distance > radius;
    if (outside) parts.push(`outside the ${radius} m radius`);
    if (p.side === 'in' && row.clock_in_override) parts.push('said “I’m here”');
    const lateMin = Math.floor((p.at - row.starts_at) / 60_000);
    if (p.side === 'in' && lateMin >= 1) parts.push(`${lateMin} min after the start`);
    if (p.side === 'out' && p.at < row.ends_at) parts.push('before the scheduled end');
    if (p.received !== null) parts.push(`made offline (the phone’s time), sent ${timeInZone(p.received, tz)}`);
    const manager =
      punchedAs === 'manager' || (p.by !== null && r.s.shifter !== null && p.by !== r.s.shifter.user_id && punchedAs !== 'kiosk');
    const by = punchedAs === 'kiosk' ? actorOf(a) : manager ? businessPerson(p.by) : shifter;
    const what = p.side === 'in' ? 'Clocked in' : manager ? `Ended for ${shifter}` : 'Clocked out';
    out.push({
      at: toIso(p.at),
      kind: p.side === 'in' ? 'clocked_in' : 'clocked_out',
      said: `${what}: ${parts.join(', ')}`,
      by,
      money: null,
      quote: null,
      attention: outside,
      other: null,
      photo: p.photo ? { url: p.photo, side: p.side } : null,
    });
  }
  return out;
}
