/**
 * Who reaches what at the checkout (docs/checkout.md, "Who reaches what"), given/when/then: a reservation is bound to
 * the merchant that made it (the one of its verified API key), and a promotion scoped to another merchant is not
 * usable at the caller.
 */
import { expect } from 'chai';
import type { CheckoutReservationEvent } from '../../../../domain/checkout/events.js';
import {
  checkoutReservationDecider,
  type CheckoutReservationCommand,
} from '../../../../domain/checkout/checkout-reservation.js';
import { usableAtMerchant } from '../../../../domain/checkout/merchant-scope.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(checkoutReservationDecider);
const at = '2026-06-01T10:00:00.000Z';
const key = 'a3f1c2d4-0000-4000-8000-000000000002';
const merchantA = { orderId: 'order-1', userId: 'u1', merchantId: 'MERCHANT_A' };
const merchantB = { ...merchantA, merchantId: 'MERCHANT_B' };

const reservedByA: CheckoutReservationEvent = {
  type: 'CheckoutReserved',
  data: {
    reservationKey: key,
    orderId: 'order-1',
    merchantId: 'MERCHANT_A',
    userId: 'u1',
    promotions: [{ promotionId: 42, promotionMasterId: 7, codeType: 'UNIQUE' }],
    discount: { totalDiscount: 10, originalTotal: 100, finalAmount: 90, breakdown: [] },
    expiresAt: null,
    reservedAt: at,
  },
};
const confirmedByA: CheckoutReservationEvent = {
  type: 'CheckoutConfirmed',
  data: { reservationKey: key, confirmedAt: at },
};

const confirm = (who: typeof merchantA): CheckoutReservationCommand => ({ type: 'ConfirmCheckout', ...who, now: at });
const release = (who: typeof merchantA): CheckoutReservationCommand => ({
  type: 'ReleaseCheckout',
  ...who,
  reason: 'PAYMENT_FAILED',
  now: at,
});
const refund = (who: typeof merchantA): CheckoutReservationCommand => ({
  type: 'RefundCheckout',
  ...who,
  reason: 'refunded',
  now: at,
});

describe('checkout: a reservation is bound to its merchant', () => {
  it('given A reserved, when B confirms with its order id and user, then RESERVATION_NOT_FOUND', () => {
    given([reservedByA]).when(confirm(merchantB)).thenRejects('RESERVATION_NOT_FOUND', { reservationKey: key });
  });

  it('given A reserved, when B releases it, then RESERVATION_NOT_FOUND (nothing released)', () => {
    given([reservedByA]).when(release(merchantB)).thenRejects('RESERVATION_NOT_FOUND', { reservationKey: key });
  });

  it('given A confirmed, when B refunds or releases it, then RESERVATION_NOT_FOUND, not "already confirmed"', () => {
    given([reservedByA, confirmedByA]).when(refund(merchantB)).thenRejects('RESERVATION_NOT_FOUND');
    given([reservedByA, confirmedByA]).when(release(merchantB)).thenRejects('RESERVATION_NOT_FOUND');
  });

  it('given A reserved, when A confirms, then confirmed (its own merchant passes)', () => {
    given([reservedByA]).when(confirm(merchantA)).then([confirmedByA]);
    given([reservedByA, confirmedByA])
      .when(refund(merchantA))
      .then([{ type: 'CheckoutRefunded', data: { reservationKey: key, reason: 'refunded', refundedAt: at } }]);
  });
});

describe('checkout: promotions usable at a merchant', () => {
  it("the platform's at every merchant, a merchant's only at that merchant", () => {
    expect(usableAtMerchant({ type: 'PLATFORM' }, 'MERCHANT_A')).to.equal(true);
    expect(usableAtMerchant({ type: 'MERCHANT', merchantId: 'MERCHANT_A' }, 'MERCHANT_A')).to.equal(true);
    expect(usableAtMerchant({ type: 'MERCHANT', merchantId: 'MERCHANT_A' }, 'MERCHANT_B')).to.equal(false);
    // Ids are compared exactly: no case folding that would let "merchant_a" reach MERCHANT_A's.
    expect(usableAtMerchant({ type: 'MERCHANT', merchantId: 'MERCHANT_A' }, 'merchant_a')).to.equal(false);
  });
});
