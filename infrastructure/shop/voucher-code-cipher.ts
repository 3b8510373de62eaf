/**
 * Voucher codes at rest (docs/shop-purchase.md, "Voucher codes at rest"): AES-256-GCM under a keyring. The current
 * key (VOUCHER_CODE_KEY) encrypts; it and the old keys (VOUCHER_CODE_OLD_KEYS) decrypt, each found by the key id the
 * text carries, so a rotation re-encrypts nothing in the log. Each text is bound (GCM additional data) to its
 * reservation and voucher: copied onto another voucher it does not open.
 */
import { cipherKeyId, minSealedBytes, openGcm, sealGcm } from '../shared/secret-cipher.js';
import type { VoucherCodeBinding, VoucherCodeCipher } from '../../application/shop/index.js';

/** A key's id: the first 4 bytes of its sha256, in hex (the shared keyring's). It names the key without revealing it. */
export const voucherKeyId = cipherKeyId;

function keyBytes(key: Buffer | string): Buffer {
  const bytes = typeof key === 'string' ? Buffer.from(/^[0-9a-fA-F]{64}$/.test(key) ? key : '', 'hex') : key;
  if (bytes.length !== 32) throw new RangeError('a voucher code key must be 32 bytes (64 hex characters)');
  return Buffer.from(bytes);
}

const additionalData = ({ reservationKey, issuedPromotionId }: VoucherCodeBinding): Buffer =>
  Buffer.from(`voucher-code|${reservationKey}|${issuedPromotionId}`, 'utf8');

/**
 * Texts: `v2.<key id>.` + base64url(iv ‖ tag ‖ ciphertext), a fresh random iv each time (equal codes never look
 * equal at rest), bound to the voucher. `v1.` texts (before the keyring: no key id, no binding) still decrypt with any
 * key of the ring. A tampered text, a foreign one, or one whose key left the ring throws.
 */
export class AesGcmVoucherCodeCipher implements VoucherCodeCipher {
  private readonly current: { id: string; key: Buffer };
  private readonly ring = new Map<string, Buffer>();

  constructor(key: Buffer | string, oldKeys: readonly (Buffer | string)[] = []) {
    const bytes = keyBytes(key);
    this.current = { id: voucherKeyId(bytes), key: bytes };
    for (const k of [bytes, ...oldKeys.map(keyBytes)]) this.ring.set(voucherKeyId(k), k);
  }

  /** The id of the key that encrypts now. */
  get keyId(): string {
    return this.current.id;
  }

  encrypt(code: string, binding: VoucherCodeBinding): string {
    return `v2.${this.current.id}.${sealGcm(this.current.key, code, additionalData(binding)).toString('base64url')}`;
  }

  decrypt(encrypted: string, binding: VoucherCodeBinding): string {
    const parts = encrypted.split('.');
    if (parts[0] === 'v2' && parts.length === 3) {
      const key = this.ring.get(parts[1]!);
      if (!key) throw new Error(`voucher code key ${parts[1]} is not in the keyring (VOUCHER_CODE_OLD_KEYS)`);
      return openGcm(key, payload(parts[2]!), additionalData(binding));
    }
    if (parts[0] === 'v1' && parts.length === 2) {
      const raw = payload(parts[1]!);
      for (const key of this.ring.values()) {
        try {
          return openGcm(key, raw);
        } catch {
          // Not this key: the v1 text names none, so each key of the ring is tried.
        }
      }
      throw new Error('no key of the keyring opens this voucher code');
    }
    throw new Error('not an encrypted voucher code');
  }
}

function payload(text: string): Buffer {
  const raw = Buffer.from(text, 'base64url');
  if (raw.length < minSealedBytes) throw new Error('not an encrypted voucher code');
  return raw;
}
