import type { Settings } from '../../env';
import { randomBase62 } from '../../lib/ids';
import { secretBox } from '../kernel';

/**
 * Signing secrets: `whsec_` and 40 base62 characters (about 238 bits). They must be readable to sign,
 * so they are sealed (services/kernel/secret-box.ts) under WEBHOOK_SECRET_ENCRYPTION_KEY, bound to their
 * endpoint's id, never hashed. Shown to the partner once, at creation and rotation.
 */

/** The development key, published on purpose: only with LOCAL_DEFAULT_SECRETS (`npm run dev`, the tests). */
export const WEBHOOK_DEVELOPMENT_KEY_BASE64 = 'c2hpZnRtYXJrZXQtd2ViaG9va3MtZGV2ZWxvcG1lbnQ='; // "shiftmarket-webhooks-development"

const box = secretBox({
  setting: 'WEBHOOK_SECRET_ENCRYPTION_KEY',
  developmentKey: WEBHOOK_DEVELOPMENT_KEY_BASE64,
  purpose: 'webhook_endpoint',
});

export function newSigningSecret(): string {
  return `whsec_${randomBase62(40)}`;
}

export const sealSigningSecret = (settings: Settings, endpointId: string, secret: string) => box.seal(settings, endpointId, secret);
export const openSigningSecret = (settings: Settings, endpointId: string, sealed: string) => box.open(settings, endpointId, sealed);
