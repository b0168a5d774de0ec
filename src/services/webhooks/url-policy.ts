import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may be sent (SSRF): an https URL on a public host. Refused: other schemes, user
 * info in the URL, IP literals outside global unicast space (private, loopback, link-local, carrier
 * NAT, unique-local, multicast, reserved, documentation, IPv4 inside IPv6 forms), and names that
 * only resolve inside a network (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`,
 * `*.lan`, single-label names). The WHATWG URL parser has already turned odd IPv4 spellings
 * (`2130706433`, `0x7f.1`) into dotted form. Checked at registration and again before every send.
 *
 * `allowLoopback` (local development: LOCAL_DEFAULT_SECRETS) additionally lets `http://localhost`,
 * `127.0.0.0/8` and `[::1]`, http or https, through, and nothing else.
 */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet', '.corp', '.localdomain'];
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export function checkWebhookUrl(raw: string, opts: { allowLoopback: boolean }): UrlVerdict {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: `at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must be an https URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry a user name or password' };
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  if (!host) return { ok: false, reason: 'has no host' };
  if (opts.allowLoopback && isLoopbackHost(host)) return { ok: true, url };
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https URL' };
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(literal)) {
    const range = ipaddr.parse(literal).range();
    return range === 'unicast' ? { ok: true, url } : { ok: false, reason: `must not point at a ${range} address` };
  }
  if (host === 'localhost' || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) {
    return { ok: false, reason: 'must be a public host name, not an internal one' };
  }
  if (!host.includes('.')) return { ok: false, reason: 'must be a fully qualified public host name' };
  return { ok: true, url };
}

function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  return ipaddr.isValid(literal) && ipaddr.parse(literal).range() === 'loopback';
}
