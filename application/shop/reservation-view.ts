import type { Currency, ShopReservationState } from '../../domain/shop/index.js';
import type { VoucherCodeCipher } from './voucher-codes.js';

export interface ReservationView {
  reservationKey: string;
  orderId: string;
  /** An expired reservation reads RELEASED: its stock went back, releasedAt is when it expired. */
  status: 'RESERVED' | 'COMMITTED' | 'RELEASED';
  reservedAt: string;
  expiresAt: string;
  /** Only once committed, as the seed's Reservation table has it (absent, never null). */
  committedAt?: string;
  /** Only once released or expired. */
  releasedAt?: string;
  /** A released or expired reservation's vouchers went back to stock: its codes are void and never shown again. */
  items: {
    voucherPoolId: number;
    quantity: number;
    vouchers: {
      issuedPromotionId: number;
      voucherCode: string;
      faceValue: number;
      sellingPrice: number;
      currency: Currency;
      purchasedAt: string;
      expiresAt: string;
    }[];
  }[];
}

/** The reservation as its owner sees it: voucher codes decrypted while they are the buyer's (docs/shop-purchase.md). */
export function toReservationView(
  state: Exclude<ShopReservationState, { status: 'NONE' }>,
  codes: VoucherCodeCipher,
): ReservationView {
  const d = state.details;
  const void_ = state.status === 'RELEASED' || state.status === 'EXPIRED';
  return {
    reservationKey: d.reservationKey,
    orderId: d.orderId,
    status: state.status === 'EXPIRED' ? 'RELEASED' : state.status,
    reservedAt: d.reservedAt,
    expiresAt: d.expiresAt,
    ...(state.committedAt !== null ? { committedAt: state.committedAt } : {}),
    ...(state.releasedAt !== null ? { releasedAt: state.releasedAt } : {}),
    items: d.items.map((item) => ({
      voucherPoolId: item.voucherPoolId,
      quantity: item.quantity,
      vouchers: void_
        ? []
        : item.vouchers.map((v) => ({
            issuedPromotionId: v.issuedPromotionId,
            voucherCode: codes.decrypt(v.encryptedCode),
            faceValue: v.faceValue,
            sellingPrice: v.sellingPrice,
            currency: v.currency,
            purchasedAt: v.purchasedAt,
            expiresAt: v.expiresAt,
          })),
    })),
  };
}
