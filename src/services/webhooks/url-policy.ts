import ipaddr from 'ipaddr.js';
import { isInternalHostName } from '../../lib/hosts';

/**
 * Where webhooks may be sent (SSRF): an https URL on a public host. Refused: other schemes, user
 * info in the URL, IP literals outside global unicast space (private, loopback, link-local, carrier
 * NAT, unique-local, multicast, reserved, documentation), every IPv6 literal that carries an IPv4
 * address (see embeddedIpv4; the reason names an internal one), and names that only resolve inside a
 * network (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`, `*.lan`, single-label
 * names). The WHATWG URL parser has already turned odd IPv4 spellings (`2130706433`, `0x7f.1`) into
 * dotted form and IPv6 ones into canonical hex. Checked at registration and again before every send.
 *
 * `allowLoopback` (local development: LOCAL_DEFAULT_SECRETS) additionally lets `http://localhost`,
 * `127.0.0.0/8` and `[::1]`, http or https, through, and nothing else.
 */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

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
    const addr = ipaddr.parse(literal);
    const range = addr.range();
    if (addr.kind() === 'ipv6') {
      const embedded = embeddedIpv4(addr as ipaddr.IPv6);
      // The IPv4 inside is judged by the IPv4 rule first, so the reason names the real target.
      for (const v4 of embedded) {
        const inner = v4.range();
        if (inner !== 'unicast')
          return { ok: false, reason: `must not point at a ${inner} address (${v4.toString()} inside an IPv6 address)` };
      }
      // A public one is refused all the same: a partner's server has no need of a transition form.
      if (embedded.length)
        return { ok: false, reason: 'must not carry an IPv4 address inside an IPv6 one: give the IPv4 address or a host name' };
    }
    return range === 'unicast' ? { ok: true, url } : { ok: false, reason: `must not point at a ${range} address` };
  }
  if (isInternalHostName(host)) {
    return { ok: false, reason: 'must be a public host name, not an internal one' };
  }
  if (!host.includes('.')) return { ok: false, reason: 'must be a fully qualified public host name' };
  return { ok: true, url };
}

/**
 * The IPv4 addresses an IPv6 address carries, by its form (ipaddr.js names the ranges; the positions
 * are the RFCs'): IPv4-mapped `::ffff:0:0/96` (RFC 4291), IPv4-translated `::ffff:0:0:0/96` (RFC 6145),
 * NAT64 `64:ff9b::/96` and `64:ff9b:1::/48` (RFC 6052, 8215) in the last 32 bits; 6to4 `2002::/16` in
 * bits 16–47 (RFC 3056); Teredo `2001::/32` its server in bits 32–63 and its client, inverted, in the
 * last 32 (RFC 4380); the deprecated IPv4-compatible `::/96` (RFC 4291), which ipaddr.js counts as
 * unicast, in the last 32 (`::` and `::1` are unspecified and loopback, judged as such).
 */
function embeddedIpv4(addr: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = addr.toByteArray();
  const at = (i: number, invert = false) => new ipaddr.IPv4(bytes.slice(i, i + 4).map((b) => (invert ? b ^ 0xff : b)));
  switch (addr.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [at(12)];
    case '6to4':
      return [at(2)];
    case 'teredo':
      return [at(4), at(12, true)];
    case 'unicast':
      return bytes.slice(0, 12).every((b) => b === 0) ? [at(12)] : [];
    default:
      return [];
  }
}

function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  return ipaddr.isValid(literal) && ipaddr.parse(literal).range() === 'loopback';
}
