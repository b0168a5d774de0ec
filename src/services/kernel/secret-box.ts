import { ConfigError, type Settings } from '../../env';
import { fromBase64Url, toBase64Url } from '../../lib/crypto';

/**
 * Secrets the service must read back (two-factor TOTP secrets, webhook signing secrets) are kept
 * encrypted at rest: AES-256-GCM with a random 96-bit IV per value, the key from a Worker secret
 * (base64 of 32 bytes). The stored text is `v1.<iv>.<ciphertext>` (base64url), so a later key can be
 * introduced as `v2` without rewriting rows at once. The owner's id is bound as additional data
 * (`<purpose>:<owner>`): a ciphertext copied onto another owner, or used for another purpose, does not
 * decrypt. Without the Worker secret, LOCAL_DEFAULT_SECRETS (local development, the tests) falls back
 * to the kind's published development key, which protects nothing.
 */
export interface SecretBoxKind {
  /** The Worker secret holding the key. */
  setting: 'TWO_FACTOR_ENCRYPTION_KEY' | 'WEBHOOK_SECRET_ENCRYPTION_KEY';
  /** Base64 of 32 bytes, published on purpose: used only with LOCAL_DEFAULT_SECRETS. */
  developmentKey: string;
  /** Bound into the additional data with the owner's id. */
  purpose: string;
}

export interface SecretBox {
  seal(settings: Settings, ownerId: string, plaintext: string): Promise<string>;
  open(settings: Settings, ownerId: string, stored: string): Promise<string>;
}

const VERSION = 'v1';
const keys = new Map<string, Promise<CryptoKey>>();

export function secretBox(kind: SecretBoxKind): SecretBox {
  const keyMaterial = (settings: Settings): string => {
    const configured = settings[kind.setting]?.trim();
    if (configured) return configured;
    if (settings.LOCAL_DEFAULT_SECRETS) return kind.developmentKey;
    throw new ConfigError(`${kind.setting} is not set (a Worker secret: base64 of 32 random bytes).`);
  };
  const importKey = (material: string): Promise<CryptoKey> => {
    let hit = keys.get(material);
    if (!hit) {
      const raw = fromBase64Url(material);
      if (raw.byteLength !== 32) throw new ConfigError(`${kind.setting} must be base64 of exactly 32 bytes.`);
      hit = crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
      keys.set(material, hit);
    }
    return hit;
  };
  const aad = (ownerId: string) => new TextEncoder().encode(`${kind.purpose}:${ownerId}`);
  return {
    async seal(settings, ownerId, plaintext) {
      const key = await importKey(keyMaterial(settings));
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const data = new TextEncoder().encode(plaintext);
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(ownerId) }, key, data);
      return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
    },
    async open(settings, ownerId, stored) {
      const [version, iv, body] = stored.split('.');
      if (version !== VERSION || !iv || !body) throw new Error(`unreadable sealed secret (${kind.purpose})`);
      const key = await importKey(keyMaterial(settings));
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: aad(ownerId) },
        key,
        fromBase64Url(body),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
