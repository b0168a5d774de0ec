/** Suffixes of names that resolve only inside a network. */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet', '.corp', '.localdomain'];

/**
 * A host name (lower case, without its trailing dot) that resolves only inside a network:
 * `localhost`, its subdomains and the private-use suffixes. The one list the webhook URL check and the
 * push endpoint check refuse.
 */
export function isInternalHostName(host: string): boolean {
  return host === 'localhost' || INTERNAL_SUFFIXES.some((s) => host.endsWith(s));
}
