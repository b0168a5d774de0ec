import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { AppError } from '@/lib/errors';
import { BUSINESS_SEARCH_BOUNDS, type BusinessSearchResult, type FoundBusiness, searchPublicBusinesses } from '@/services/profiles';
import { CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import type { DashboardBase } from '../dashboard/context';
import { fieldErrorsOf } from '../dashboard/refusals';
import { ASK_ACTION, BusinessItem, CONNECTIONS, monthOf, Refused, ratingWords, type Standing } from './parts';

/*
 * "Find businesses" on the shifter's connections page: a GET form (name, city) searching the public
 * business profiles through the profiles domain (its bounds: a short query minimum, a page size, a
 * budget per person), each result with where the shifter stands with it, or "Ask to connect".
 */

export interface FinderQuery {
  name: string;
  city: string;
  cursor?: string | undefined;
}

export interface FinderState {
  /** The search as typed (kept in the form); null before any search. */
  query: FinderQuery | null;
  result: BusinessSearchResult | null;
  errors: { name?: string; city?: string };
  /** A refusal of the whole search (the budget spent), in the service's words. */
  message?: string | undefined;
  status?: ContentfulStatusCode | undefined;
}

/** The search the address asks for (`?name=&city=&cursor=`), or null when it asks for none. */
export function finderQueryOf(c: Context<AppEnv>): FinderQuery | null {
  const name = c.req.query('name');
  const city = c.req.query('city');
  if (name === undefined && city === undefined) return null;
  const cursor = c.req.query('cursor')?.slice(0, 200) || undefined;
  return { name: (name ?? '').slice(0, 200), city: (city ?? '').slice(0, 200), cursor };
}

/** Runs the search; its refusals become words beside the fields (or above the results). */
export async function findBusinesses(c: Context<AppEnv>, q: FinderQuery | null): Promise<FinderState> {
  if (!q) return { query: null, result: null, errors: {} };
  try {
    return { query: q, result: await searchPublicBusinesses(serviceCtx(c), q), errors: {} };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'RATE-LIMIT-ERR') {
      const retryAfter = err.headers?.['Retry-After'];
      if (retryAfter) c.header('Retry-After', retryAfter);
      return { query: q, result: null, errors: {}, message: err.message, status: 429 };
    }
    if (err.code !== 'VALIDATION-ERR') throw err;
    const { errors, rest } = fieldErrorsOf(err, ['name', 'city']);
    // A stale or altered "More businesses" address starts the list over rather than failing.
    if (q.cursor && rest !== null) return findBusinesses(c, { name: q.name, city: q.city });
    return { query: q, result: null, errors, message: rest ?? undefined };
  }
}

/** Where the shifter stands with a found business, and what they may do there. */
function StandingLine({ base, b, standing, query }: { base: DashboardBase; b: FoundBusiness; standing?: Standing; query: FinderQuery }) {
  if (base.businesses.some((x) => x.id === b.id)) {
    return (
      <p>
        <span class="badge">Your business</span>
      </p>
    );
  }
  if (standing?.kind === 'connected') {
    return (
      <p>
        <span class="badge badge-ok">In their crew</span>
      </p>
    );
  }
  if (standing?.kind === 'asked') {
    return (
      <p>
        <span class="badge badge-info">Request sent</span> <span class="muted">Waiting for their answer.</span>
      </p>
    );
  }
  if (standing?.kind === 'invited') {
    return (
      <div class="sc-actions">
        <a class="button button-primary" href={`#invitation-${standing.connection.id}`}>
          Answer their invitation
        </a>
      </div>
    );
  }
  return (
    <form method="post" action={ASK_ACTION} class="sc-actions">
      <CsrfField token={base.csrfToken} />
      <IdempotencyField />
      <input type="hidden" name="business" value={b.id} />
      <input type="hidden" name="name" value={query.name} />
      <input type="hidden" name="city" value={query.city} />
      <button type="submit" class="button button-primary" aria-label={`Ask to connect: ${b.name}`}>
        Ask to connect
      </button>
    </form>
  );
}

function moreHref(q: FinderQuery, cursor: string): string {
  return `${CONNECTIONS}?${new URLSearchParams({ name: q.name, city: q.city, cursor })}#find`;
}

export function FinderSection({
  base,
  state,
  standings,
  askRefusal,
}: {
  base: DashboardBase;
  state: FinderState;
  standings: Map<string, Standing>;
  askRefusal?: { businessId: string; message: string } | undefined;
}) {
  const q = state.query;
  const { maxChars, minChars } = BUSINESS_SEARCH_BOUNDS;
  const found = state.result?.data ?? [];
  return (
    <section class="sf-section" id="find" aria-labelledby="find-heading">
      <h2 id="find-heading">Find businesses</h2>
      <p class="muted">Search by the business's name, its city, or both. Ask to connect, and once they accept you are in their crew.</p>
      <form method="get" action={`${CONNECTIONS}#find`} class="form-grid sc-search">
        <InputField label="Business name" name="name" type="search" value={q?.name} maxLength={maxChars} error={state.errors.name} />
        <InputField label="City" name="city" type="search" value={q?.city} maxLength={maxChars} error={state.errors.city} />
        <div class="actions">
          <SubmitButton>Search</SubmitButton>
        </div>
      </form>
      <Refused message={state.message} />
      {!q ? (
        <p class="empty">{`Type at least ${minChars} letters of a name or a city, then Search.`}</p>
      ) : state.result && found.length === 0 ? (
        <p class="empty">No business matches this search. Try part of the name, or only the city.</p>
      ) : null}
      {found.length ? (
        <ul class="sc-list" aria-label="Businesses found">
          {found.map((b) => (
            <BusinessItem name={b.name} slug={b.slug} id={`business-${b.id}`}>
              <p class="muted">
                {b.city ? `${b.city} · ` : ''}on Shiftmarket since {monthOf(b.created_at)} · {ratingWords(b.ratings)}
              </p>
              <Refused message={askRefusal?.businessId === b.id ? askRefusal.message : undefined} />
              <StandingLine base={base} b={b} standing={standings.get(b.id)} query={q!} />
            </BusinessItem>
          ))}
        </ul>
      ) : null}
      {q && state.result?.next_cursor ? (
        <p>
          <a class="button button-secondary" href={moreHref(q, state.result.next_cursor)}>
            More businesses
          </a>
        </p>
      ) : null}
    </section>
  );
}
