// The crew page's card of the crew's join link: its QR code (drawn on the server), the link to copy,
// how many joined with it, and the ways to print, make or replace it.
import { generate } from 'lean-qr';
import { toSvgPath } from 'lean-qr/extras/svg';
import type { JoinLinkView } from '@/services/connections';
import { Card, CopyField, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { CREW } from './crew-format';

export const JOIN_LINK_PATH = `${CREW}/join-link`;
export const JOIN_POSTER_PATH = `${CREW}/join-poster`;

/**
 * The link as a QR code, drawn on the server (lean-qr's path over `size` modules with the 4-module
 * quiet zone around it). Always dark on white, whatever the theme, so phones read it from a screen or
 * a sheet of paper; attributes only, no inline style.
 */
export function JoinQr({ url, big = false }: { url: string; big?: boolean }) {
  const code = generate(url);
  const full = code.size + 8;
  return (
    <svg
      class={big ? 'qr join-qr join-qr-big' : 'qr join-qr'}
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`-4 -4 ${full} ${full}`}
      role="img"
      aria-label="QR code of the crew’s join link"
    >
      <rect x="-4" y="-4" width={full} height={full} fill="#fff" />
      <path d={toSvgPath(code)} fill="#000" shape-rendering="crispEdges" />
    </svg>
  );
}

const joinedWords = (n: number) =>
  n === 0 ? 'Nobody has joined with it yet.' : n === 1 ? '1 person joined with it.' : `${n} people joined with it.`;

export function JoinLinkCard({ base, link }: { base: DashboardBase; link: JoinLinkView | null }) {
  return (
    <Card title="Your crew’s join link">
      {link ? (
        <div class="join-link">
          <JoinQr url={link.url} />
          <div class="join-link-text">
            <p>Anyone with a shifter account who opens it joins your crew; someone new creates an account first.</p>
            <CopyField label="The join link" value={link.url} id="join-link-url" />
            <p class="muted">{joinedWords(link.uses)}</p>
            <div class="actions">
              <a class="button button-primary" href={dashboardHref(base, JOIN_POSTER_PATH)}>
                Print the poster
              </a>
              <a class="button button-secondary" href={dashboardHref(base, JOIN_LINK_PATH)}>
                Replace the link
              </a>
            </div>
          </div>
        </div>
      ) : (
        <>
          <p class="empty">
            No join link yet. Make one to print as a poster with a QR code at the venue, or to share: anyone with a shifter account who
            opens it joins your crew.
          </p>
          <form method="post" action={dashboardHref(base, JOIN_LINK_PATH)} class="inline-form">
            <CsrfField token={base.csrfToken} />
            <IdempotencyField />
            <SubmitButton variant="secondary">Make a join link</SubmitButton>
          </form>
        </>
      )}
    </Card>
  );
}
