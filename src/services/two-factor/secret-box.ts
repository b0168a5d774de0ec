import { ConfigError, type Settings } from '../../env';

/**
 * Two-factor secrets at rest: AES-256-GCM with a random 96-bit IV per value, the key from the Worker
 * secret TWO_FACTOR_ENCRYPTION_KEY (base64 of 32 bytes). The stored text is `v1.<iv>.<ciphertext>`
 * (base64url), so a later key can be introduced as `v2` without rewriting rows at once. The user id is
 * bound as additional data: a ciphertext copied onto another account does not decrypt.
 */

/**
 * The development key, published here on purpose: used only when the secret is absent and
 * LOCAL_DEFAULT_SECRETS is on (`npm run dev`, the tests). Never protects real data.
 */
export const DEVELOPMENT_KEY_BASE64 = 'c2hpZnRtYXJrZXQtbG9jYWwtZGV2ZWxvcG1lbnQta2U='; // the text "shiftmarket-local-development-ke"

const VERSION = 'v1';
const keys = new Map<string, Promise<CryptoKey>>();

function keyMaterial(settings: Settings): string {
  const configured = settings.TWO_FACTOR_ENCRYPTION_KEY?.trim();
  if (configured) return configured;
  if (settings.LOCAL_DEFAULT_SECRETS) return DEVELOPMENT_KEY_BASE64;
  throw new ConfigError('TWO_FACTOR_ENCRYPTION_KEY is not set (a Worker secret: base64 of 32 random bytes).');
}

function importKey(material: string): Promise<CryptoKey> {
  let hit = keys.get(material);
  if (!hit) {
    const raw = fromBase64(material.replace(/-/g, '+').replace(/_/g, '/'));
    if (raw.byteLength !== 32) throw new ConfigError('TWO_FACTOR_ENCRYPTION_KEY must be base64 of exactly 32 bytes.');
    hit = crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    keys.set(material, hit);
  }
  return hit;
}

export async function sealSecret(settings: Settings, userId: string, plaintext: string): Promise<string> {
  const key = await importKey(keyMaterial(settings));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(plaintext);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(userId) }, key, data);
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

export async function openSecret(settings: Settings, userId: string, stored: string): Promise<string> {
  const [version, iv, body] = stored.split('.');
  if (version !== VERSION || !iv || !body) throw new Error('unreadable two-factor secret');
  const key = await importKey(keyMaterial(settings));
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: aad(userId) },
    key,
    fromBase64Url(body),
  );
  return new TextDecoder().decode(plain);
}

const aad = (userId: string) => new TextEncoder().encode(`two_factor:${userId}`);

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}
function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '='));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
