import { AppError } from '../../lib/errors';
import { isInternalHostName } from '../../lib/hosts';
import type { ServiceContext } from '../kernel';

/**
 * The push services browsers subscribe with, by the host of their endpoints (`PushManager.subscribe`
 * answers an endpoint on one of these): Firebase Cloud Messaging (Chrome, Edge on Android, Opera,
 * Samsung Internet, Brave), Mozilla's autopush (Firefox), Apple's (Safari on macOS 13+ and iOS 16.4+)
 * and the Windows Push Notification Services (Edge on Windows, `wns2-….notify.windows.com`).
 * `*.` takes the subdomains of what follows, not the domain itself. The operator adds more with
 * PUSH_SERVICE_HOSTS (src/env.ts).
 */
export const PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'web.push.apple.com',
  '*.notify.windows.com',
];

/** Public DNS names that answer with the address written in the name (`10.0.0.8.nip.io`, `127-0-0-1.sslip.io`). */
const ADDRESS_IN_NAME_DOMAINS = ['nip.io', 'sslip.io', 'xip.io', 'traefik.me', 'localtest.me', 'lvh.me', 'vcap.me', 'local.gd'];
/** An IPv4 address written in a name: four dotted numbers, or four dashed ones inside a label. */
const DOTTED_IPV4 = /(^|\.)(\d{1,3}\.){3}\d{1,3}(\.|$)/;
const DASHED_IPV4 = /(^|[.-])(\d{1,3}-){3}\d{1,3}([.-]|$)/;

const invalid = (message: string) => new AppError('VALIDATION-ERR', `endpoint: ${message}`, [{ field: 'endpoint', message }]);

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

function listed(host: string, entries: readonly string[]): boolean {
  return entries.some((e) => (e.startsWith('*.') ? host.endsWith(e.slice(1)) && host.length > e.length - 1 : host === e));
}

/**
 * A push endpoint is a push service's https URL on port 443: the Worker POSTs to it on every
 * delivery, so it must not be a way to reach this machine or a private network. The host is judged
 * as the URL parser normalises it (lower case, IDN to its `xn--` form, full-width letters folded)
 * and without the trailing dot of a fully qualified name, so `https://LOCALHOST./` is `localhost`.
 * Refused everywhere: other schemes and ports, credentials, IP literals, single-label and internal
 * names, and names that carry an address (`*.nip.io`, `*.sslip.io`, a dotted or dashed IPv4 inside).
 * In production (LOCAL_DEFAULT_SECRETS off) only the push services' own hosts pass
 * (PUSH_SERVICE_HOSTS above, and the operator's setting of that name); in local development and the
 * tests any other host name passes too (the local push stand-in's `push.stand-in.test`).
 * Answers the URL in that normal form, as it is stored.
 */
export function checkPushEndpoint(ctx: Pick<ServiceContext, 'settings'>, endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid('must be an absolute https URL');
  }
  if (url.protocol !== 'https:') throw invalid('must be https');
  if (url.username || url.password) throw invalid('must not carry credentials');
  if (url.port) throw invalid('must use the https port (443)');
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (!host || host.split('.').some((label) => !label)) throw invalid('must name a push service by its host name');
  if (host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || !host.includes('.')) {
    throw invalid('must name a push service by its host name');
  }
  if (isInternalHostName(host)) throw invalid('must be a push service on the internet');
  if (ADDRESS_IN_NAME_DOMAINS.some((d) => under(host, d)) || DOTTED_IPV4.test(host) || DASHED_IPV4.test(host)) {
    throw invalid('must be a push service on the internet, not a name for an IP address');
  }
  if (!ctx.settings.LOCAL_DEFAULT_SECRETS && !listed(host, [...PUSH_SERVICE_HOSTS, ...ctx.settings.PUSH_SERVICE_HOSTS])) {
    throw invalid('must be the endpoint of a known push service (an operator adds others with PUSH_SERVICE_HOSTS)');
  }
  url.hostname = host;
  return url;
}
