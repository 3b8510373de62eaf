import { expect } from 'chai';
import type { ShopReservationEvent } from '../../../../domain/shop/events.js';
import {
  shopReservationDecider,
  type ReservationDetails,
  type ShopReservationCommand,
} from '../../../../domain/shop/reservation.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(shopReservationDecider);
const reservedAt = '2025-03-01T03:00:00.000Z';
const expiresAt = '2025-03-01T03:15:00.000Z';
const before = '2025-03-01T03:10:00.000Z';
const after = '2025-03-01T03:15:00.000Z';
const owner = { merchantId: 'm1', userId: 'u1' };

const details: ReservationDetails = {
  reservationKey: 'k1',
  orderId: 'o1',
  merchantId: 'm1',
  userId: 'u1',
  idempotencyKey: 'i1',
  requestHash: 'h',
  amount: 180_000,
  currency: 'VND',
  reservedAt,
  expiresAt,
  items: [{ voucherPoolId: 1, quantity: 2, unitPrice: 90_000, vouchers: [] }],
};

const placed: ShopReservationEvent = { type: 'ShopReservationPlaced', data: details };
const committed: ShopReservationEvent = {
  type: 'ShopReservationCommitted',
  data: { reservationKey: 'k1', committedAt: before },
};
const released: ShopReservationEvent = {
  type: 'ShopReservationReleased',
  data: { reservationKey: 'k1', releasedAt: before, reason: 'USER_CANCELLED' },
};
const expired: ShopReservationEvent = {
  type: 'ShopReservationExpired',
  data: { reservationKey: 'k1', expiredAt: after },
};

const commit = (now = before, autoExpiry = false, caller = owner): ShopReservationCommand => ({
  type: 'CommitReservation',
  caller,
  now,
  autoExpiry,
});
const release = (now = before, autoExpiry = false, caller = owner): ShopReservationCommand => ({
  type: 'ReleaseReservation',
  caller,
  reason: 'USER_CANCELLED',
  now,
  autoExpiry,
});
const expire = (now = after, autoExpiry = true): ShopReservationCommand => ({
  type: 'ExpireReservation',
  now,
  autoExpiry,
});

describe('shop reservation decider', () => {
  it('places a reservation once', () => {
    given([]).when({ type: 'PlaceReservation', details }).then([placed]);
    expect(() =>
      shopReservationDecider.decide(
        { type: 'PlaceReservation', details },
        shopReservationDecider.evolve(shopReservationDecider.initialState, placed),
      ),
    ).to.throw('already exists');
  });

  describe('commit', () => {
    it('commits a reserved reservation', () => {
      given([placed]).when(commit()).then([committed]);
    });

    it('treats a missing reservation and one of another user or merchant alike', () => {
      given([]).when(commit()).thenRejects('RESERVATION_NOT_FOUND');
      given([placed])
        .when(commit(before, false, { merchantId: 'm1', userId: 'u2' }))
        .thenRejects('RESERVATION_NOT_FOUND');
      given([placed])
        .when(commit(before, false, { merchantId: 'm2', userId: 'u1' }))
        .thenRejects('RESERVATION_NOT_FOUND');
    });

    it('refuses a committed or released reservation', () => {
      given([placed, committed]).when(commit()).thenRejects('RESERVATION_NOT_RESERVED', { status: 'COMMITTED' });
      given([placed, released]).when(commit()).thenRejects('RESERVATION_NOT_RESERVED', { status: 'RELEASED' });
    });

    it('refuses an expired reservation, or one past expiresAt when expiry is automatic', () => {
      given([placed, expired]).when(commit(after, true)).thenRejects('RESERVATION_EXPIRED');
      given([placed]).when(commit(after, true)).thenRejects('RESERVATION_EXPIRED');
    });

    it('commits past expiresAt when expiry is not automatic', () => {
      given([placed])
        .when(commit(after, false))
        .then([{ type: 'ShopReservationCommitted', data: { reservationKey: 'k1', committedAt: after } }]);
    });
  });

  describe('release', () => {
    it('releases a reserved reservation with its reason', () => {
      given([placed]).when(release()).then([released]);
    });

    it('treats a missing reservation and one of another user alike', () => {
      given([]).when(release()).thenRejects('RESERVATION_NOT_FOUND');
      given([placed])
        .when(release(before, false, { merchantId: 'm1', userId: 'u9' }))
        .thenRejects('RESERVATION_NOT_FOUND');
    });

    it('refuses a released or committed reservation as final', () => {
      given([placed, released]).when(release()).thenRejects('RESERVATION_ALREADY_FINAL', { status: 'RELEASED' });
      given([placed, committed]).when(release()).thenRejects('RESERVATION_ALREADY_FINAL', { status: 'COMMITTED' });
    });

    it('refuses an expired reservation, or one past expiresAt when expiry is automatic', () => {
      given([placed, expired]).when(release(after, true)).thenRejects('RESERVATION_EXPIRED');
      given([placed]).when(release(after, true)).thenRejects('RESERVATION_EXPIRED');
      given([placed]).when(release(before, true)).then([released]);
    });

    it('releases past expiresAt when expiry is not automatic', () => {
      given([placed])
        .when(release(after, false))
        .then([
          {
            type: 'ShopReservationReleased',
            data: { reservationKey: 'k1', releasedAt: after, reason: 'USER_CANCELLED' },
          },
        ]);
    });
  });

  describe('expire', () => {
    it('expires a reserved reservation at expiresAt when expiry is automatic', () => {
      given([placed]).when(expire()).then([expired]);
    });

    it('does nothing before expiresAt, without automatic expiry, or once final', () => {
      given([placed]).when(expire(before)).then([]);
      given([placed]).when(expire(after, false)).then([]);
      given([placed, committed]).when(expire()).then([]);
      given([placed, released]).when(expire()).then([]);
      given([placed, expired]).when(expire()).then([]);
      given([]).when(expire()).then([]);
    });
  });

  it('records when and why it ended', () => {
    const state = [placed, expired].reduce(shopReservationDecider.evolve, shopReservationDecider.initialState);
    expect(state).to.include({ status: 'EXPIRED', releasedAt: after, releaseReason: 'EXPIRED', committedAt: null });
  });
});
