import type { Currency, ShopReservationState } from '../../domain/shop/index.js';
import type { VoucherCodeBinding, VoucherCodeCipher } from './voucher-codes.js';

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
      /** Null when no key of the ring opens it (docs/shop-purchase.md, "Voucher codes at rest"): never a 500. */
      voucherCode: string | null;
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
            voucherCode: readable(codes, v.encryptedCode, { reservationKey: d.reservationKey, ...v }),
            faceValue: v.faceValue,
            sellingPrice: v.sellingPrice,
            currency: v.currency,
            purchasedAt: v.purchasedAt,
            expiresAt: v.expiresAt,
          })),
    })),
  };
}

/**
 * The code, or null when it cannot be decrypted (a key dropped from the ring too early, a damaged text): the
 * reservation's state is the answer, so a commit that succeeded answers 200, and the code shows again once the key
 * is back. The service logs the count (PurchaseService).
 */
function readable(codes: VoucherCodeCipher, encrypted: string, binding: VoucherCodeBinding): string | null {
  try {
    return codes.decrypt(encrypted, {
      reservationKey: binding.reservationKey,
      issuedPromotionId: binding.issuedPromotionId,
    });
  } catch {
    return null;
  }
}

/** How many of the view's codes could not be decrypted. */
export const unreadableCodes = (view: ReservationView): number =>
  view.items.reduce((n, item) => n + item.vouchers.filter((v) => v.voucherCode === null).length, 0);
