/** A checkout reservation's life, given/when/then (domain/checkout/checkout-reservation.ts; docs/checkout.md). */
import type { CheckoutReservationEvent } from '../../../../domain/checkout/events.js';
import {
  checkoutReservationDecider,
  type CheckoutReservationCommand,
} from '../../../../domain/checkout/checkout-reservation.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(checkoutReservationDecider);
const at = '2026-06-01T10:00:00.000Z';
const later = '2026-06-01T10:20:00.000Z';
const key = 'a3f1c2d4-0000-4000-8000-000000000001';
const caller = { orderId: 'order-1', userId: 'u1', merchantId: 'M1' };

const reservedData = (expiresAt: string | null = null) => ({
  reservationKey: key,
  orderId: 'order-1',
  merchantId: 'M1',
  userId: 'u1',
  promotions: [{ promotionId: 42, promotionMasterId: 7, codeType: 'UNIQUE' as const }],
  discount: { totalDiscount: 10, originalTotal: 100, finalAmount: 90, breakdown: [] },
  expiresAt,
});
const reserved = (expiresAt: string | null = null): CheckoutReservationEvent => ({
  type: 'CheckoutReserved',
  data: { ...reservedData(expiresAt), reservedAt: at },
});
const confirmed: CheckoutReservationEvent = {
  type: 'CheckoutConfirmed',
  data: { reservationKey: key, confirmedAt: at },
};
const released: CheckoutReservationEvent = {
  type: 'CheckoutReleased',
  data: { reservationKey: key, reason: null, releasedAt: at },
};
const refunded: CheckoutReservationEvent = {
  type: 'CheckoutRefunded',
  data: { reservationKey: key, reason: 'refund', refundedAt: at },
};
const expired: CheckoutReservationEvent = { type: 'CheckoutExpired', data: { reservationKey: key, expiredAt: later } };

const confirm = (now = at, who = caller): CheckoutReservationCommand => ({ type: 'ConfirmCheckout', ...who, now });
const release = (now = at, who = caller): CheckoutReservationCommand => ({
  type: 'ReleaseCheckout',
  ...who,
  reason: null,
  now,
});
const refund: CheckoutReservationCommand = { type: 'RefundCheckout', ...caller, reason: 'refund', now: at };
const expire = (now: string): CheckoutReservationCommand => ({ type: 'ExpireCheckout', now });

describe('checkout reservation decider', () => {
  it('reserves once; a second reserve under the key is a bug (RESERVATION_EXISTS)', () => {
    given([])
      .when({ type: 'ReserveCheckout', ...reservedData(), now: at })
      .then([reserved()]);
    given([reserved()])
      .when({ type: 'ReserveCheckout', ...reservedData(), now: at })
      .thenRejects('RESERVATION_EXISTS');
  });

  it('only its order and its wallet owner find it: RESERVATION_NOT_FOUND otherwise', () => {
    given([]).when(confirm()).thenRejects('RESERVATION_NOT_FOUND');
    given([reserved()])
      .when(confirm(at, { ...caller, orderId: 'order-2' }))
      .thenRejects('RESERVATION_NOT_FOUND');
    given([reserved()])
      .when(release(at, { ...caller, userId: 'u2' }))
      .thenRejects('RESERVATION_NOT_FOUND');
  });

  it('confirm: RESERVED → CONFIRMED; again or after refund: RESERVATION_ALREADY_CONFIRMED; after release: not found', () => {
    given([reserved()]).when(confirm()).then([confirmed]);
    given([reserved(), confirmed]).when(confirm()).thenRejects('RESERVATION_ALREADY_CONFIRMED');
    given([reserved(), confirmed, refunded]).when(confirm()).thenRejects('RESERVATION_ALREADY_CONFIRMED');
    given([reserved(), released]).when(confirm()).thenRejects('RESERVATION_NOT_FOUND');
  });

  it('with a time-to-live, confirm past it is RESERVATION_EXPIRED, before it confirms', () => {
    given([reserved('2026-06-01T10:15:00.000Z')])
      .when(confirm(later))
      .thenRejects('RESERVATION_EXPIRED');
    given([reserved('2026-06-01T10:15:00.000Z')])
      .when(confirm())
      .then([confirmed]);
    given([reserved('2026-06-01T10:15:00.000Z'), expired])
      .when(confirm())
      .thenRejects('RESERVATION_EXPIRED');
  });

  it('release: RESERVED → RELEASED; again or after expiry: nothing; after confirm: RESERVATION_ALREADY_CONFIRMED', () => {
    given([reserved()]).when(release()).then([released]);
    given([reserved(), released]).when(release()).then([]);
    given([reserved('2026-06-01T10:15:00.000Z'), expired])
      .when(release())
      .then([]);
    given([reserved(), confirmed]).when(release()).thenRejects('RESERVATION_ALREADY_CONFIRMED');
  });

  it('refund: CONFIRMED → REFUNDED; again: nothing; never confirmed: RESERVATION_NOT_CONFIRMED', () => {
    given([reserved(), confirmed]).when(refund).then([refunded]);
    given([reserved(), confirmed, refunded]).when(refund).then([]);
    given([reserved()]).when(refund).thenRejects('RESERVATION_NOT_CONFIRMED');
    given([reserved(), released]).when(refund).thenRejects('RESERVATION_NOT_CONFIRMED');
  });

  it('expire: only a waiting reservation past its time-to-live; never one without', () => {
    given([reserved('2026-06-01T10:15:00.000Z')])
      .when(expire(later))
      .then([expired]);
    given([reserved('2026-06-01T10:15:00.000Z')])
      .when(expire(at))
      .then([]);
    given([reserved()]).when(expire('2099-01-01T00:00:00.000Z')).then([]);
    given([reserved('2026-06-01T10:15:00.000Z'), confirmed])
      .when(expire(later))
      .then([]);
    given([]).when(expire(later)).then([]);
  });
});
