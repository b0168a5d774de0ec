import { Webhook } from 'standardwebhooks';

/**
 * Each delivery is signed twice over, with the same secrets and timestamp (docs/decisions/partner-webhooks.md):
 *
 * - `Shiftmarket-Signature: t=<unix seconds>,v1=<hex>`, the HMAC-SHA256 of `<t>.<raw body>` keyed with
 *   the endpoint's secret (its UTF-8 bytes, `whsec_…` included);
 * - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id` (the event id),
 *   `webhook-timestamp` (the same seconds) and `webhook-signature: v1,<base64>`, the HMAC-SHA256 of
 *   `<id>.<timestamp>.<raw body>` keyed with the secret as the standard reads a `whsec_` secret: the
 *   base64 after the prefix, decoded (our 40 base62 characters are valid base64: 30 bytes). Signed
 *   by the `standardwebhooks` package, the standard's reference library, whose `verify` partners run.
 *
 * While a rotated-out secret is still in its grace period, each header carries a second signature made
 * with it (a second `v1=`; a second `v1,…` after a space), so a receiver holding either secret
 * verifies; receivers accept any matching signature.
 */
export const SIGNATURE_HEADER = 'Shiftmarket-Signature';
export const EVENT_ID_HEADER = 'Shiftmarket-Event-Id';
export const EVENT_TYPE_HEADER = 'Shiftmarket-Event-Type';

export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

const enc = new TextEncoder();

/** HMAC-SHA256 on Web Crypto, keyed with the secret's UTF-8 bytes, as hex (the scheme of our own header). */
async function hmacHex(secret: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(message)));
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The header value for a body sent at `unixSeconds`, one `v1` per secret (the current one first). */
export async function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): Promise<string> {
  const parts = [`t=${unixSeconds}`];
  for (const secret of secrets) parts.push(`v1=${await hmacHex(secret, `${unixSeconds}.${body}`)}`);
  return parts.join(',');
}

/** The Standard Webhooks `webhook-signature` value: `v1,<base64>` per secret (the current one first), space-separated. */
export function standardSignatureHeader(secrets: readonly string[], id: string, unixSeconds: number, body: string): string {
  const sentAt = new Date(unixSeconds * 1000);
  return secrets.map((secret) => new Webhook(secret).sign(id, sentAt, body)).join(' ');
}
