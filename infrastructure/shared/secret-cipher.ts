/**
 * The keyring behind SecretCipher (application/shared/secret-cipher.ts; docs/conventions.md, "Secrets and
 * signatures"): AES-256-GCM. The current key encrypts; it and the old keys decrypt, each found by the key id the text
 * carries, so a key rotation re-encrypts nothing in the log. `purpose` separates the texts of different uses of one
 * key (it is part of the additional data with the binding).
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { pooledRandomBytes } from '../../application/shared/random-pool.js';
import type { SecretCipher } from '../../application/shared/secret-cipher.js';

const ivBytes = 12;
const tagBytes = 16;
/** The shortest text `sealGcm` makes (an empty plaintext): anything shorter was never sealed. */
export const minSealedBytes = ivBytes + tagBytes;

/** A key's id: the first 4 bytes of its sha256, in hex. It names the key without revealing it. */
export const cipherKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** A 32-byte key from its 64 hex characters. */
export function cipherKey(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new RangeError('an encryption key must be 64 hex characters (32 bytes)');
  return Buffer.from(hex, 'hex');
}

/** AES-256-GCM under `key` with a fresh random iv: iv ‖ tag ‖ ciphertext. */
export function sealGcm(key: Buffer, plain: string, aad?: Buffer): Buffer {
  const iv = pooledRandomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** Opens what `sealGcm` sealed; throws on a tampered text, another key or other additional data. */
export function openGcm(key: Buffer, sealed: Buffer, aad?: Buffer): string {
  if (sealed.length < minSealedBytes) throw new Error('not an encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, ivBytes));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(ivBytes, ivBytes + tagBytes));
  return Buffer.concat([decipher.update(sealed.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
}

/** Texts: `k1.<key id>.` + base64url(iv ‖ tag ‖ ciphertext), a fresh random iv each time. */
export class AesGcmSecretCipher implements SecretCipher {
  private readonly current: { id: string; key: Buffer };
  private readonly ring = new Map<string, Buffer>();

  constructor(
    private readonly purpose: string,
    key: string,
    oldKeys: readonly string[] = [],
  ) {
    const bytes = cipherKey(key);
    this.current = { id: cipherKeyId(bytes), key: bytes };
    for (const k of [bytes, ...oldKeys.map(cipherKey)]) this.ring.set(cipherKeyId(k), k);
  }

  encrypt(plain: string, binding: string): string {
    const sealed = sealGcm(this.current.key, plain, this.additionalData(binding));
    return `k1.${this.current.id}.${sealed.toString('base64url')}`;
  }

  decrypt(encrypted: string, binding: string): string {
    const [version, keyId, text, ...rest] = encrypted.split('.');
    if (version !== 'k1' || keyId === undefined || text === undefined || rest.length > 0)
      throw new Error('not an encrypted secret');
    const key = this.ring.get(keyId);
    if (!key) throw new Error(`encryption key ${keyId} is not in the keyring`);
    return openGcm(key, Buffer.from(text, 'base64url'), this.additionalData(binding));
  }

  private additionalData(binding: string): Buffer {
    return Buffer.from(`${this.purpose}|${binding}`, 'utf8');
  }
}
