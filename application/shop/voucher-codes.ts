import { randomBytes } from 'node:crypto';

/** The voucher a code belongs to: its encrypted text opens only for this voucher of this reservation. */
export interface VoucherCodeBinding {
  reservationKey: string;
  issuedPromotionId: number;
}

/**
 * Voucher codes are stored only encrypted (in ShopReservationPlaced) and
 * decrypted for the reservation's owner. Adapter:
 * infrastructure/shop/voucher-code-cipher.ts (AES-256-GCM under a keyring).
 */
export interface VoucherCodeCipher {
  encrypt(code: string, binding: VoucherCodeBinding): string;
  /** Throws when no key it holds opens the text for this voucher (tampered, copied, another key, a key dropped). */
  decrypt(encrypted: string, binding: VoucherCodeBinding): string;
}

/** Crockford base 32: no I, L, O or U, so codes read aloud and typed by hand survive. */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const idChars = 8; // 32^8 ≈ 1.1e12 issued vouchers
const randomChars = 12; // 60 random bits: codes cannot be guessed from their neighbours

/**
 * A fresh voucher code: the issued voucher id in fixed width (unique by
 * construction) followed by random characters, in groups of four:
 * `0000-00A7-K3QZ-9TXM-4PWD`.
 */
export function newVoucherCode(issuedPromotionId: number): string {
  if (!Number.isSafeInteger(issuedPromotionId) || issuedPromotionId < 0 || issuedPromotionId >= 32 ** idChars) {
    throw new RangeError(`issued promotion id out of range: ${issuedPromotionId}`);
  }
  let id = '';
  for (let n = issuedPromotionId, i = 0; i < idChars; i++, n = Math.floor(n / 32)) id = alphabet[n % 32]! + id;
  let random = '';
  for (const byte of randomBytes(randomChars)) random += alphabet[byte & 31]; // 256 is a multiple of 32: uniform
  return (id + random).match(/.{4}/g)!.join('-');
}
