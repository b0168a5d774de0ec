// A shifter's public details (name, work, city, rating, since when), shown before inviting them and
// on their page in the crew.
import type { PublicShifter } from '@/services/profiles';
import { longDate, ratingText } from './crew-format';

export function ShifterFacts({ s }: { s: PublicShifter }) {
  return (
    <dl class="pairs">
      <dt>Name</dt>
      <dd>
        {s.display_name}
        {s.accept_shift_req ? null : (
          <>
            {' '}
            <span class="badge">Paused: not taking requests</span>
          </>
        )}
      </dd>
      {s.headline ? (
        <>
          <dt>Works as</dt>
          <dd>{s.headline}</dd>
        </>
      ) : null}
      {s.city ? (
        <>
          <dt>City</dt>
          <dd>{s.city}</dd>
        </>
      ) : null}
      <dt>Rating</dt>
      <dd>{ratingText(s.ratings)}</dd>
      <dt>On Shiftmarket since</dt>
      <dd>{longDate(new Date(s.created_at).toISOString().slice(0, 10))}</dd>
    </dl>
  );
}
