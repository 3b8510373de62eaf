/**
 * Users' promotion wallets, as the shop fills them: a voucher bought in the shop becomes an ISSUED promotion in the
 * buyer's wallet, usable at checkout (spec part A, "COMMITTED: vouchers go to the user's wallet"). The checkout
 * provides the port; the shop's process manager calls it for each committed reservation (docs/process-managers.md).
 */

export interface BoughtVoucher {
  /** The voucher's id, from the `issuedPromotion` sequence: it is the promotion's id in the wallet. */
  issuedPromotionId: number;
  /** The code the buyer was shown. */
  code: string;
  voucherPoolId: number;
  /** The pool's title, for the promotion master the pool's vouchers are issued under. */
  title: string;
  faceValue: number;
  purchasedAt: string;
  expiresAt: string;
}

export interface BoughtVouchers {
  reservationKey: string;
  merchantId: string;
  userId: string;
  vouchers: BoughtVoucher[];
}

/** The event that caused the issue, so a redelivery issues nothing twice (application/shared/command-context.ts). */
export interface IssueCause {
  eventId: string;
  correlationId: string;
}

export interface PromotionWalletPort {
  /** Issues each voucher into the buyer's wallet; idempotent per voucher. */
  issueBoughtVouchers(purchase: BoughtVouchers, cause: IssueCause): Promise<void>;
}
