/**
 * The signature of a delivery (DECISIONS.md): `Shiftmarket-Signature: t=<unix seconds>,v1=<hex>`,
 * the HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint's secret (its UTF-8 bytes, `whsec_…`
 * included). While a rotated-out secret is still in its grace period, a second `v1=` signed with it
 * follows, so a receiver holding either secret verifies; receivers accept any matching `v1`.
 */
export const SIGNATURE_HEADER = 'Shiftmarket-Signature';
export const EVENT_ID_HEADER = 'Shiftmarket-Event-Id';
export const EVENT_TYPE_HEADER = 'Shiftmarket-Event-Type';

const enc = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, enc.encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The header value for a body sent at `unixSeconds`, one `v1` per secret (the current one first). */
export async function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): Promise<string> {
  const parts = [`t=${unixSeconds}`];
  for (const secret of secrets) parts.push(`v1=${await hmacHex(secret, `${unixSeconds}.${body}`)}`);
  return parts.join(',');
}
