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

/** A fresh voucher code (application/shared/promotion-codes.ts): the shop's vouchers become promotions in the wallet. */
export { newPromotionCode as newVoucherCode } from '../shared/promotion-codes.js';
