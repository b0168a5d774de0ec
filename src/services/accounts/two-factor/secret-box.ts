import type { Settings } from '../../../env';
import { secretBox } from '../../kernel';

/**
 * Two-factor secrets at rest, sealed by the shared secret box (services/kernel/secret-box.ts: AES-256-GCM,
 * `v1.<iv>.<ciphertext>`), the key from the Worker secret TWO_FACTOR_ENCRYPTION_KEY (base64 of 32
 * bytes). The user id is bound as additional data (`two_factor:<user id>`): a ciphertext copied onto
 * another account does not decrypt.
 */

/**
 * The development key, published here on purpose: used only when the secret is absent and
 * LOCAL_DEFAULT_SECRETS is on (`npm run dev`, the tests). Never protects real data.
 */
export const DEVELOPMENT_KEY_BASE64 = 'c2hpZnRtYXJrZXQtbG9jYWwtZGV2ZWxvcG1lbnQta2U='; // the text "shiftmarket-local-development-ke"

const box = secretBox({ setting: 'TWO_FACTOR_ENCRYPTION_KEY', developmentKey: DEVELOPMENT_KEY_BASE64, purpose: 'two_factor' });

export function sealSecret(settings: Settings, userId: string, plaintext: string): Promise<string> {
  return box.seal(settings, userId, plaintext);
}

export function openSecret(settings: Settings, userId: string, stored: string): Promise<string> {
  return box.open(settings, userId, stored);
}
