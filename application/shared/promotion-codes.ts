/**
 * Codes of issued promotions, shared by the shop (a voucher bought is a promotion in the buyer's wallet) and the
 * checkout (promotions operators issue): one id sequence (`issuedPromotion`), one code form, so a code names one
 * promotion whichever context issued it.
 */
import { randomInt } from 'node:crypto';
import { pooledRandomBytes } from './random-pool.js';

/** Crockford base 32: no I, L, O or U, so codes read aloud and typed by hand survive. */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const idChars = 8; // 32^8 ≈ 1.1e12 issued vouchers
const randomChars = 12; // 60 random bits: codes cannot be guessed from their neighbours

/**
 * A fresh voucher code: the issued voucher id in fixed width (unique by
 * construction) followed by random characters, in groups of four:
 * `0000-00A7-K3QZ-9TXM-4PWD`.
 */
export function newPromotionCode(issuedPromotionId: number): string {
  if (!Number.isSafeInteger(issuedPromotionId) || issuedPromotionId < 0 || issuedPromotionId >= 32 ** idChars) {
    throw new RangeError(`issued promotion id out of range: ${issuedPromotionId}`);
  }
  let id = '';
  for (let n = issuedPromotionId, i = 0; i < idChars; i++, n = Math.floor(n / 32)) id = alphabet[n % 32]! + id;
  let random = '';
  for (const byte of pooledRandomBytes(randomChars)) random += alphabet[byte & 31]; // 256 is a multiple of 32: uniform
  const code = id + random;
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12, 16)}-${code.slice(16)}`;
}

/** A pin of `digits` decimal digits, uniformly random. */
export function newPin(digits = 6): string {
  let pin = '';
  for (let i = 0; i < digits; i++) pin += String(randomInt(10));
  return pin;
}
