// The shifters whose public name matched the crew page's invite field: what their public profiles show,
// where each stands with the crew, and "Choose" (the confirmation that sends the connection request).
import type { ShifterSearchResult } from '@/services/profiles';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import type { CrewData } from './crew-data';
import { CREW, ratingText } from './crew-format';

export function ShifterResults({ base, data, found }: { base: DashboardBase; data: CrewData; found: ShifterSearchResult }) {
  const { accepted, outgoing, incoming } = data.connections;
  const standing = (id: string) =>
    accepted.some((x) => x.shifter_id === id)
      ? 'In your crew'
      : outgoing.some((x) => x.shifter_id === id)
        ? 'Your request is waiting'
        : incoming.some((x) => x.shifter_id === id)
          ? 'Asking to join: answer below'
          : null;
  return (
    <section class="shifter-results" aria-labelledby="shifter-results-head">
      <h3 id="shifter-results-head">{`Shifters named like “${found.query}”`}</h3>
      <ul class="list-plain">
        {found.data.map((s) => {
          const stands = standing(s.id);
          return (
            <li class="row-split">
              <span>
                <a href={`/s/${encodeURIComponent(s.slug)}`}>{s.display_name}</a>
                {s.accept_shift_req ? null : (
                  <>
                    {' '}
                    <span class="badge">Paused</span>
                  </>
                )}
                <br />
                <span class="muted">{[s.headline, s.city, ratingText(s.ratings)].filter(Boolean).join(' · ')}</span>
              </span>
              {stands ? (
                <span class="badge badge-info">{stands}</span>
              ) : (
                <a class="button button-secondary" href={dashboardHref(base, `${CREW}/invite`, { shifter: s.id })}>
                  Choose<span class="visually-hidden">{` ${s.display_name}`}</span>
                </a>
              )}
            </li>
          );
        })}
      </ul>
      {found.next_cursor ? (
        <p>
          <a href={dashboardHref(base, `${CREW}/invite`, { shifter: found.query, cursor: found.next_cursor })}>
            More shifters named like this
          </a>
        </p>
      ) : null}
    </section>
  );
}
