/**
 * A checkout reservation (stream checkoutReservation-<reservationKey>): one order's hold on the promotions it
 * selected, from reserve until confirm, release, refund or (only with a configured time-to-live) expiry. It decides
 * the answers of confirm, release, refund and get-reservation; the promotions it holds follow it in the same append
 * (application/checkout/checkout-service.ts). States and answers: docs/checkout.md, "Reservations".
 */
import type { Decider } from '../shared/decider.js';
import { checkoutError } from './errors.js';
import type { CheckoutReservationEvent, CheckoutReserved } from './events.js';

export type CheckoutReservationStatus = 'RESERVED' | 'CONFIRMED' | 'RELEASED' | 'EXPIRED' | 'REFUNDED';

export type CheckoutReservation = CheckoutReserved['data'] & {
  readonly status: CheckoutReservationStatus;
  readonly confirmedAt: string | null;
  readonly endedAt: string | null;
};

export type CheckoutReservationState = { readonly status: 'NONE' } | CheckoutReservation;

/**
 * Who asks: the order given at reserve, the wallet's owner and the merchant that reserved (the one of its verified
 * API key) must all match, or the reservation is not theirs (docs/checkout.md, "Who reaches what").
 */
export interface ReservationCaller {
  orderId: string;
  userId: string;
  merchantId: string;
}

export type CheckoutReservationCommand =
  | ({ type: 'ReserveCheckout'; now: string } & Omit<CheckoutReserved['data'], 'reservedAt'>)
  | ({ type: 'ConfirmCheckout'; now: string } & ReservationCaller)
  | ({ type: 'ReleaseCheckout'; reason: string | null; now: string } & ReservationCaller)
  | ({ type: 'RefundCheckout'; reason: string | null; now: string } & ReservationCaller)
  | { type: 'ExpireCheckout'; now: string };

/** Past its time-to-live (never, without one). */
export const outlived = (r: CheckoutReservation, now: string): boolean =>
  r.expiresAt !== null && Date.parse(now) >= Date.parse(r.expiresAt);

/** The reservation, when it is this caller's; otherwise "not found", telling nothing of another's. */
export function ownReservation(
  state: CheckoutReservationState,
  caller: ReservationCaller,
  key?: string,
): CheckoutReservation {
  if (
    state.status === 'NONE' ||
    state.orderId !== caller.orderId ||
    state.userId !== caller.userId ||
    state.merchantId !== caller.merchantId
  )
    throw checkoutError('RESERVATION_NOT_FOUND', 'no such reservation for this order and user', {
      reservationKey: key ?? (state.status === 'NONE' ? undefined : state.reservationKey),
    });
  return state;
}

const alreadyConfirmed = (r: CheckoutReservation) =>
  checkoutError('RESERVATION_ALREADY_CONFIRMED', `reservation ${r.reservationKey} was confirmed already`, {
    reservationKey: r.reservationKey,
  });

const expired = (r: CheckoutReservation) =>
  checkoutError('RESERVATION_EXPIRED', `reservation ${r.reservationKey} expired at ${r.expiresAt}`, {
    reservationKey: r.reservationKey,
  });

function decide(command: CheckoutReservationCommand, state: CheckoutReservationState): CheckoutReservationEvent[] {
  switch (command.type) {
    case 'ReserveCheckout': {
      const { type: _type, now, ...data } = command;
      if (state.status !== 'NONE')
        throw checkoutError('RESERVATION_EXISTS', `reservation ${data.reservationKey} exists`, {
          reservationKey: data.reservationKey,
        });
      return [{ type: 'CheckoutReserved', data: { ...data, reservedAt: now } }];
    }
    case 'ConfirmCheckout': {
      const r = ownReservation(state, command);
      if (r.status === 'CONFIRMED' || r.status === 'REFUNDED') throw alreadyConfirmed(r);
      if (r.status === 'EXPIRED' || (r.status === 'RESERVED' && outlived(r, command.now))) throw expired(r);
      if (r.status === 'RELEASED')
        throw checkoutError('RESERVATION_NOT_FOUND', `reservation ${r.reservationKey} was released`, {
          reservationKey: r.reservationKey,
        });
      return [{ type: 'CheckoutConfirmed', data: { reservationKey: r.reservationKey, confirmedAt: command.now } }];
    }
    case 'ReleaseCheckout': {
      const r = ownReservation(state, command);
      if (r.status === 'CONFIRMED' || r.status === 'REFUNDED') throw alreadyConfirmed(r);
      // Released or expired already: the promotions are back, which is what the caller wants.
      if (r.status !== 'RESERVED') return [];
      return [
        {
          type: 'CheckoutReleased',
          data: { reservationKey: r.reservationKey, reason: command.reason, releasedAt: command.now },
        },
      ];
    }
    case 'RefundCheckout': {
      const r = ownReservation(state, command);
      if (r.status === 'REFUNDED') return [];
      if (r.status !== 'CONFIRMED')
        throw checkoutError(
          'RESERVATION_NOT_CONFIRMED',
          `reservation ${r.reservationKey} was never confirmed (${r.status}): release it instead`,
          { reservationKey: r.reservationKey },
        );
      return [
        {
          type: 'CheckoutRefunded',
          data: { reservationKey: r.reservationKey, reason: command.reason, refundedAt: command.now },
        },
      ];
    }
    case 'ExpireCheckout': {
      // Its timer, or a confirm that came too late: only a reservation still waiting, past its time-to-live.
      if (state.status !== 'RESERVED' || !outlived(state, command.now)) return [];
      return [{ type: 'CheckoutExpired', data: { reservationKey: state.reservationKey, expiredAt: command.now } }];
    }
  }
}

function evolve(state: CheckoutReservationState, event: CheckoutReservationEvent): CheckoutReservationState {
  if (event.type === 'CheckoutReserved') return { ...event.data, status: 'RESERVED', confirmedAt: null, endedAt: null };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'CheckoutConfirmed':
      return { ...state, status: 'CONFIRMED', confirmedAt: event.data.confirmedAt };
    case 'CheckoutReleased':
      return { ...state, status: 'RELEASED', endedAt: event.data.releasedAt };
    case 'CheckoutExpired':
      return { ...state, status: 'EXPIRED', endedAt: event.data.expiredAt };
    case 'CheckoutRefunded':
      return { ...state, status: 'REFUNDED', endedAt: event.data.refundedAt };
  }
}

export const checkoutReservationDecider: Decider<
  CheckoutReservationCommand,
  CheckoutReservationState,
  CheckoutReservationEvent
> = { initialState: { status: 'NONE' }, decide, evolve };
