import type { Context } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { clientIp } from '@/http/middleware/auth';
import { AppError } from '@/lib/errors';
import { resolveApiKey } from '@/services/accounts';
import { closedWords, joinCrew, previewCrewInvitation } from '@/services/connections';
import type { ServiceContext } from '@/services/kernel';
import { Notice } from '@/web/components';
import { joinPath } from './join';

/*
 * A crew invitation carried through sign-up: /signup?invite={token} says which crew the new account
 * joins, the token rides in the sign-up and code forms (`invite`), and once the emailed code is
 * confirmed the new account joins that crew (the same joinCrew as the join page) before it is
 * signed in, so the person lands in the crew.
 */

/** The invitation a sign-up carries: its token and business when it still works, else why not. */
export type CarriedInvite = { token: string; business: string } | { token: null; problem: string } | null;

const TOKEN = /^[0-9A-Za-z]{1,64}$/;

/** A carried token as the code step keeps it: its characters only, else none. */
export const inviteToken = (raw: string | undefined) => (raw && TOKEN.test(raw) ? raw : '');

export async function carriedInvite(c: Context<AppEnv>, raw: string | undefined): Promise<CarriedInvite> {
  const token = (raw ?? '').trim();
  if (!token) return null;
  if (!TOKEN.test(token)) return { token: null, problem: 'The invitation link was cut short: open it again from the message.' };
  try {
    const p = await previewCrewInvitation(serviceCtx(c), token, clientIp(c));
    if (!p) return { token: null, problem: 'This invitation link does not exist: open it again from the message, or ask for a new one.' };
    if (p.state !== 'open') return { token: null, problem: closedWords(p) };
    return { token, business: p.business.name };
  } catch (err) {
    if (err instanceof AppError && err.code === 'RATE-LIMIT-ERR') return { token: null, problem: err.message };
    throw err;
  }
}

/** The sign-up's and code step's line about the crew being joined, and the hidden field carrying it. */
export function InviteLine({ invite }: { invite: CarriedInvite }) {
  if (!invite) return null;
  if (invite.token === null) return <p class="hint">{`${invite.problem} You can still create an account.`}</p>;
  return (
    <Notice kind="info">{`You are joining the crew of ${invite.business}: create your account and confirm your email, and you are in.`}</Notice>
  );
}

/**
 * After the code confirmed the new account: it joins the invitation's crew, acting with the personal
 * key the confirmation just issued (the account's own credential, as the API's sign-in would use),
 * and the path it lands on once signed in: the join page, saying it joined, or saying why not.
 */
export async function joinAfterVerify(c: Context<AppEnv>, token: string, apiKey: string): Promise<string> {
  const cred = await resolveApiKey(c.get('db'), apiKey);
  if (!cred) return joinPath(token);
  const { userId, credentialId, isAdmin, isDemo, demoAdmin } = cred;
  const ctx: ServiceContext = {
    ...serviceCtx(c),
    actor: { kind: 'user', userId, via: 'api_key', credentialId, isAdmin, isDemo, demoAdmin },
    idempotency: undefined,
  };
  try {
    await joinCrew(ctx, { token });
    return `${joinPath(token)}?notice=joined`;
  } catch (err) {
    // The account exists and is confirmed either way: the join page says why it did not join.
    if (err instanceof AppError && err.status < 500) return joinPath(token);
    throw err;
  }
}
