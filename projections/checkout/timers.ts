/**
 * The checkout's stored timers (docs/process-managers.md, "Timers"): an issued promotion expires at the end of its
 * validity; a reservation, only when a time-to-live is configured, expires at its expiresAt. Derived from events, so
 * a restart forgets none; the checkout's timer job fires them (infrastructure/checkout).
 */
import {
  checkoutEventDecoder,
  type CheckoutEvent,
  type CheckoutReservationEvent,
  type IssuedPromotionEvent,
} from '../../domain/checkout/index.js';
import { timerProjector, type TimerChanges } from '../shared/timers.js';

export const checkoutTimersTable = 'checkout_timers';

export const timerKinds = {
  promotionExpiry: 'issued-promotion-expiry',
  reservationExpiry: 'checkout-reservation-expiry',
} as const;

const promotionTimer = (promotionId: number) => `promotion-${promotionId}:expiry`;
const reservationTimer = (reservationKey: string) => `reservation-${reservationKey}:expiry`;

function timersFor(e: { type: string; data: unknown } & CheckoutEvent): TimerChanges {
  switch (e.type) {
    case 'PromotionIssued':
      return {
        schedule: [
          {
            id: promotionTimer(e.data.promotionId),
            kind: timerKinds.promotionExpiry,
            dueAt: e.data.validUntil,
            payload: { promotionId: e.data.promotionId },
          },
        ],
      };
    case 'PromotionCancelled':
    case 'PromotionExpired':
      return { cancel: [promotionTimer(e.data.promotionId)] };
    case 'CheckoutReserved':
      return e.data.expiresAt === null
        ? {}
        : {
            schedule: [
              {
                id: reservationTimer(e.data.reservationKey),
                kind: timerKinds.reservationExpiry,
                dueAt: e.data.expiresAt,
                payload: { reservationKey: e.data.reservationKey },
              },
            ],
          };
    case 'CheckoutConfirmed':
    case 'CheckoutReleased':
    case 'CheckoutExpired':
      return { cancel: [reservationTimer(e.data.reservationKey)] };
    default:
      return {};
  }
}

export const checkoutTimersProjector = timerProjector<CheckoutEvent>({
  name: 'checkout-timers',
  table: checkoutTimersTable,
  version: 1,
  eventTypes: new Set<(IssuedPromotionEvent | CheckoutReservationEvent)['type']>([
    'PromotionIssued',
    'PromotionCancelled',
    'PromotionExpired',
    'CheckoutReserved',
    'CheckoutConfirmed',
    'CheckoutReleased',
    'CheckoutExpired',
  ]),
  decoder: checkoutEventDecoder,
  comment:
    "The checkout's pending work at a time: issued-promotion-expiry (a promotion's validity ends) and checkout-reservation-expiry (a reservation's time-to-live passes, only with CHECKOUT_RESERVATION_TTL_SECONDS). Fed by PromotionIssued, PromotionCancelled, PromotionExpired, CheckoutReserved, CheckoutConfirmed, CheckoutReleased, CheckoutExpired.",
  timersFor,
});
