import Bowser from 'bowser';

/**
 * What a stored User-Agent says about the device, in words a person recognises ("Computer: Chrome
 * 131 on macOS"), parsed by bowser rather than by patterns of our own. Browsers freeze the system's
 * version in their User-Agent (macOS 10.15.7, Windows NT 10.0 whatever the real one), so only the
 * system's name is shown, and the browser's major version. A program that is not a browser (curl, an
 * SDK) is named by its first product token.
 */
export const USER_AGENT_MAX = 512;

export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'tv', 'bot'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export interface DeviceView {
  /** The browser and its major version ("Firefox 133"), or a program's product token ("curl/8.5.0"); null when unknown. */
  browser: string | null;
  /** The operating system's name ("Android", "Windows"); null when unknown. */
  os: string | null;
  type: DeviceType | null;
  /** The device model when the browser says it ("iPhone", "Pixel 8"); null when it does not. */
  model: string | null;
  /** One line for a list: "Computer: Chrome 131 on macOS", "iPhone: Safari 17 on iOS", "A program: curl/8.5.0". */
  label: string;
}

const KIND: Record<DeviceType, string> = { desktop: 'Computer', mobile: 'Phone', tablet: 'Tablet', tv: 'TV', bot: 'Automated client' };

const isDeviceType = (t: string | undefined): t is DeviceType => (DEVICE_TYPES as readonly string[]).includes(t ?? '');

/** The device of a User-Agent, or null when there was none. */
export function describeUserAgent(userAgent: string | null | undefined): DeviceView | null {
  const ua = (userAgent ?? '').trim().slice(0, USER_AGENT_MAX);
  if (!ua) return null;
  const parsed = Bowser.parse(ua);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : null;
  const os = parsed.os.name || null;
  const type = isDeviceType(parsed.platform.type) ? parsed.platform.type : null;
  const model = parsed.platform.model || null;
  if (!browser && !os) {
    const product = ua.split(/\s/)[0]!.slice(0, 60);
    return { browser: product, os: null, type, model, label: `A program: ${product}` };
  }
  const what = `${browser ?? 'A browser'}${os ? ` on ${os}` : ''}`;
  const kind = model ?? (type ? KIND[type] : null);
  return { browser, os, type, model, label: kind ? `${kind}: ${what}` : what };
}

/** A short label for a trusted browser ("Chrome 131 on Linux"), kept with the device's row. */
export function deviceLabel(userAgent: string | undefined): string {
  const d = describeUserAgent(userAgent);
  if (!d) return 'A browser on an unknown system';
  return d.os || d.browser ? `${d.browser ?? 'A browser'} on ${d.os ?? 'an unknown system'}` : d.label;
}
