import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { VoucherCodeCipher } from '../../application/shop/index.js';

const version = 'v1';
const ivBytes = 12;
const tagBytes = 16;

/**
 * AES-256-GCM with a 32-byte key (VOUCHER_CODE_KEY, 64 hex characters).
 * Output: `v1.` + base64url(iv ‖ tag ‖ ciphertext), a fresh random iv each
 * time, so equal codes never look equal at rest; the tag makes a tampered or
 * foreign text fail to decrypt instead of yielding a wrong code.
 */
export class AesGcmVoucherCodeCipher implements VoucherCodeCipher {
  private readonly key: Buffer;

  constructor(key: Buffer | string) {
    const bytes = typeof key === 'string' ? Buffer.from(/^[0-9a-fA-F]{64}$/.test(key) ? key : '', 'hex') : key;
    if (bytes.length !== 32) throw new RangeError('the voucher code key must be 32 bytes (64 hex characters)');
    this.key = Buffer.from(bytes);
  }

  encrypt(code: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
    return `${version}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  decrypt(encrypted: string): string {
    const [v, payload] = encrypted.split('.');
    if (v !== version || !payload) throw new Error('not an encrypted voucher code');
    const raw = Buffer.from(payload, 'base64url');
    if (raw.length < ivBytes + tagBytes) throw new Error('not an encrypted voucher code');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, ivBytes));
    decipher.setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
    return Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
  }
}
