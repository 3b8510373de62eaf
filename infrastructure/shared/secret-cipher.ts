/**
 * The keyring behind SecretCipher (application/shared/secret-cipher.ts; docs/conventions.md, "Secrets and
 * signatures"): AES-256-GCM. The current key encrypts; it and the old keys decrypt, each found by the key id the text
 * carries, so a key rotation re-encrypts nothing in the log. `purpose` separates the texts of different uses of one
 * key (it is part of the additional data with the binding).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../../application/shared/secret-cipher.js';

const ivBytes = 12;
const tagBytes = 16;

/** A key's id: the first 4 bytes of its sha256, in hex. It names the key without revealing it. */
export const cipherKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** A 32-byte key from its 64 hex characters. */
export function cipherKey(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new RangeError('an encryption key must be 64 hex characters (32 bytes)');
  return Buffer.from(hex, 'hex');
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
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(this.additionalData(binding));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `k1.${this.current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  decrypt(encrypted: string, binding: string): string {
    const [version, keyId, text, ...rest] = encrypted.split('.');
    if (version !== 'k1' || keyId === undefined || text === undefined || rest.length > 0)
      throw new Error('not an encrypted secret');
    const key = this.ring.get(keyId);
    if (!key) throw new Error(`encryption key ${keyId} is not in the keyring`);
    const raw = Buffer.from(text, 'base64url');
    if (raw.length < ivBytes + tagBytes) throw new Error('not an encrypted secret');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, ivBytes));
    decipher.setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
    decipher.setAAD(this.additionalData(binding));
    return Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
  }

  private additionalData(binding: string): Buffer {
    return Buffer.from(`${this.purpose}|${binding}`, 'utf8');
  }
}
