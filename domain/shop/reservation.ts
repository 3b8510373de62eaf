/**
 * The shop reservation aggregate (stream shopReservation-<reservationKey>):
 * RESERVED → COMMITTED | RELEASED, or EXPIRED when automatic expiry is on.
 *
 * Automatic expiry (spec README, contradiction 2) is a setting passed in each
 * command: off, a reservation stays RESERVED past expiresAt until commit or
 * release; on, once now >= expiresAt it can only expire, and commit and
 * release answer RESERVATION_EXPIRED.
 */
import type { Decider } from '../shared/decider.js';
import type { ShopReservationEvent, ShopReservationPlaced } from './events.js';
import { shopError } from './errors.js';

export type ReservationDetails = ShopReservationPlaced['data'];

export type ShopReservationState =
  | { readonly status: 'NONE' }
  | {
      readonly status: 'RESERVED' | 'COMMITTED' | 'RELEASED' | 'EXPIRED';
      readonly details: ReservationDetails;
      readonly committedAt: string | null;
      /** When it was released or expired. */
      readonly releasedAt: string | null;
      readonly releaseReason: string | null;
    };

/** Who asks: a reservation is visible only to the merchant and user who placed it. */
export interface ReservationCaller {
  merchantId: string;
  userId: string;
}

export type ShopReservationCommand =
  | { type: 'PlaceReservation'; details: ReservationDetails }
  | { type: 'CommitReservation'; caller: ReservationCaller; now: string; autoExpiry: boolean }
  | { type: 'ReleaseReservation'; caller: ReservationCaller; reason: string | null; now: string; autoExpiry: boolean }
  | { type: 'ExpireReservation'; now: string; autoExpiry: boolean };

/** RESERVED, automatic expiry on and expiresAt reached: the reservation may only expire. */
export function isExpiryDue(state: ShopReservationState, now: string, autoExpiry: boolean): boolean {
  return autoExpiry && state.status === 'RESERVED' && Date.parse(now) >= Date.parse(state.details.expiresAt);
}

function owned(
  state: ShopReservationState,
  caller: ReservationCaller,
): Exclude<ShopReservationState, { status: 'NONE' }> {
  if (
    state.status === 'NONE' ||
    state.details.merchantId !== caller.merchantId ||
    state.details.userId !== caller.userId
  ) {
    throw shopError('RESERVATION_NOT_FOUND', "reservation missing or not the caller's");
  }
  return state;
}

function expired(reservationKey: string) {
  return shopError('RESERVATION_EXPIRED', `reservation ${reservationKey} has expired`, { reservationKey });
}

function decide(command: ShopReservationCommand, state: ShopReservationState): ShopReservationEvent[] {
  switch (command.type) {
    case 'PlaceReservation':
      if (state.status !== 'NONE') throw new Error(`reservation ${command.details.reservationKey} already exists`);
      return [{ type: 'ShopReservationPlaced', data: command.details }];
    case 'CommitReservation': {
      const r = owned(state, command.caller);
      const { reservationKey } = r.details;
      if (r.status === 'EXPIRED' || isExpiryDue(r, command.now, command.autoExpiry)) throw expired(reservationKey);
      if (r.status !== 'RESERVED')
        throw shopError('RESERVATION_NOT_RESERVED', `reservation ${reservationKey} is ${r.status}`, {
          reservationKey,
          status: r.status,
        });
      return [{ type: 'ShopReservationCommitted', data: { reservationKey, committedAt: command.now } }];
    }
    case 'ReleaseReservation': {
      const r = owned(state, command.caller);
      const { reservationKey } = r.details;
      if (r.status === 'EXPIRED' || isExpiryDue(r, command.now, command.autoExpiry)) throw expired(reservationKey);
      if (r.status !== 'RESERVED')
        throw shopError('RESERVATION_ALREADY_FINAL', `reservation ${reservationKey} is ${r.status}`, {
          reservationKey,
          status: r.status,
        });
      return [
        { type: 'ShopReservationReleased', data: { reservationKey, releasedAt: command.now, reason: command.reason } },
      ];
    }
    case 'ExpireReservation':
      if (!isExpiryDue(state, command.now, command.autoExpiry) || state.status === 'NONE') return [];
      return [
        {
          type: 'ShopReservationExpired',
          data: { reservationKey: state.details.reservationKey, expiredAt: command.now },
        },
      ];
  }
}

function evolve(state: ShopReservationState, event: ShopReservationEvent): ShopReservationState {
  if (event.type === 'ShopReservationPlaced') {
    return { status: 'RESERVED', details: event.data, committedAt: null, releasedAt: null, releaseReason: null };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'ShopReservationCommitted':
      return { ...state, status: 'COMMITTED', committedAt: event.data.committedAt };
    case 'ShopReservationReleased':
      return { ...state, status: 'RELEASED', releasedAt: event.data.releasedAt, releaseReason: event.data.reason };
    case 'ShopReservationExpired':
      return { ...state, status: 'EXPIRED', releasedAt: event.data.expiredAt, releaseReason: 'EXPIRED' };
  }
}

export const shopReservationDecider: Decider<ShopReservationCommand, ShopReservationState, ShopReservationEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
