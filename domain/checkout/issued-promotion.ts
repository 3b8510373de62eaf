/**
 * An issued promotion (stream issuedPromotion-<promotionId>): one code in one user's wallet, with the spec's states
 * ISSUED → RESERVED → USED, back to ISSUED on release or refund, and CANCELLED (an operator) or EXPIRED (its timer at
 * the end of validity). Each transition is decided here against the state, so two checkouts racing for one UNIQUE
 * promotion have one winner (the stream's expected version serialises them). Repeats of the same reservation's
 * step are no-ops, so a retried request changes nothing.
 */
import type { Decider } from '../shared/decider.js';
import { checkoutError } from './errors.js';
import type { IssuedPromotionEvent, PromotionIssued, ReturnReason } from './events.js';

export type IssuedPromotionStatus = 'ISSUED' | 'RESERVED' | 'USED' | 'CANCELLED' | 'EXPIRED';

export type IssuedPromotion = Omit<PromotionIssued['data'], 'issuedAt'> & {
  readonly status: IssuedPromotionStatus;
  /** The reservation that holds or used it, or last returned it; null before any. */
  readonly reservationKey: string | null;
  readonly orderId: string | null;
  readonly issuedAt: string;
};

export type IssuedPromotionState = { readonly status: 'NONE' } | IssuedPromotion;

export type IssuedPromotionCommand =
  | ({ type: 'IssuePromotion'; now: string } & Omit<PromotionIssued['data'], 'issuedAt'>)
  | { type: 'ReservePromotion'; userId: string; reservationKey: string; orderId: string; now: string }
  | { type: 'ConfirmPromotion'; reservationKey: string; now: string }
  | { type: 'ReleasePromotion'; reservationKey: string; reason?: Exclude<ReturnReason, 'REFUNDED'>; now: string }
  | { type: 'RefundPromotion'; reservationKey: string; now: string }
  | { type: 'CancelPromotion'; now: string }
  | { type: 'ExpirePromotion'; now: string };

const ended = (p: IssuedPromotion, now: string) => Date.parse(now) >= Date.parse(p.validUntil);

function existing(state: IssuedPromotionState, promotionId?: number): IssuedPromotion {
  if (state.status === 'NONE')
    throw checkoutError('PROMOTION_NOT_FOUND', 'no such promotion in the wallet', { promotionId });
  return state;
}

/** Back to ISSUED; past its validity it expires at once (a returned promotion is not usable any more). */
function returned(p: IssuedPromotion, reason: ReturnReason, key: string, now: string): IssuedPromotionEvent[] {
  const events: IssuedPromotionEvent[] = [
    { type: 'PromotionReturned', data: { promotionId: p.promotionId, reservationKey: key, reason, returnedAt: now } },
  ];
  if (ended(p, now)) events.push({ type: 'PromotionExpired', data: { promotionId: p.promotionId, expiredAt: now } });
  return events;
}

function reserve(p: IssuedPromotion, c: Extract<IssuedPromotionCommand, { type: 'ReservePromotion' }>) {
  const { promotionId } = p;
  // Ids are a sequence: saying it is another user's tells nothing a caller could not guess.
  if (p.userId !== c.userId)
    throw checkoutError('PROMOTION_NOT_OWNED', `promotion ${promotionId} is not in this user's wallet`, {
      promotionId,
    });
  if (p.status === 'RESERVED' && p.reservationKey === c.reservationKey) return [];
  if (p.status === 'RESERVED')
    throw checkoutError('PROMOTION_ALREADY_RESERVED', `promotion ${promotionId} is held by another checkout`, {
      promotionId,
    });
  if (p.status === 'EXPIRED' || ended(p, c.now))
    throw checkoutError('PROMOTION_EXPIRED', `promotion ${promotionId} expired at ${p.validUntil}`, { promotionId });
  if (p.status !== 'ISSUED')
    throw checkoutError('PROMOTION_NOT_APPLICABLE', `promotion ${promotionId} is ${p.status}`, { promotionId });
  if (Date.parse(c.now) < Date.parse(p.validFrom))
    throw checkoutError('PROMOTION_NOT_APPLICABLE', `promotion ${promotionId} is valid from ${p.validFrom}`, {
      promotionId,
    });
  return [
    {
      type: 'PromotionReserved' as const,
      data: { promotionId, reservationKey: c.reservationKey, orderId: c.orderId, reservedAt: c.now },
    },
  ];
}

function decide(command: IssuedPromotionCommand, state: IssuedPromotionState): IssuedPromotionEvent[] {
  switch (command.type) {
    case 'IssuePromotion': {
      const { type: _type, now, ...data } = command;
      if (state.status === 'NONE') return [{ type: 'PromotionIssued', data: { ...data, issuedAt: now } }];
      // The same issue again (a retried request, a replayed shop commit) changes nothing. Codes are compared by where
      // they came from: their encrypted texts differ each time.
      if (
        state.userId === data.userId &&
        state.promotionMasterId === data.promotionMasterId &&
        JSON.stringify(state.source) === JSON.stringify(data.source)
      )
        return [];
      throw checkoutError('PROMOTION_EXISTS', `promotion ${data.promotionId} holds another promotion`, {
        promotionId: data.promotionId,
      });
    }
    case 'ReservePromotion':
      return reserve(existing(state), command);
    case 'ConfirmPromotion': {
      const p = existing(state);
      const mine = p.reservationKey === command.reservationKey;
      if (mine && p.status === 'USED') return [];
      if (!mine || p.status !== 'RESERVED')
        throw checkoutError('PROMOTION_RESERVATION_NOT_FOUND', 'the reservation does not hold this promotion', {
          promotionId: p.promotionId,
        });
      return [
        {
          type: 'PromotionUsed',
          data: { promotionId: p.promotionId, reservationKey: command.reservationKey, usedAt: command.now },
        },
      ];
    }
    case 'ReleasePromotion': {
      const p = existing(state);
      const mine = p.reservationKey === command.reservationKey;
      if (mine && p.status === 'USED')
        throw checkoutError('PROMOTION_ALREADY_USED', 'the reservation confirmed it: refund it instead', {
          promotionId: p.promotionId,
        });
      if (mine && p.status === 'RESERVED')
        return returned(p, command.reason ?? 'RELEASED', command.reservationKey, command.now);
      // Released already by this reservation (a repeat): nothing to do.
      if (mine && (p.status === 'ISSUED' || p.status === 'EXPIRED')) return [];
      throw checkoutError('PROMOTION_RESERVATION_NOT_FOUND', 'the reservation does not hold this promotion', {
        promotionId: p.promotionId,
      });
    }
    case 'RefundPromotion': {
      const p = existing(state);
      const mine = p.reservationKey === command.reservationKey;
      if (mine && p.status === 'USED') return returned(p, 'REFUNDED', command.reservationKey, command.now);
      if (mine && p.status === 'RESERVED')
        throw checkoutError('PROMOTION_NOT_USED', 'the reservation has not confirmed it: release it instead', {
          promotionId: p.promotionId,
        });
      if (mine && (p.status === 'ISSUED' || p.status === 'EXPIRED')) return [];
      throw checkoutError('PROMOTION_RESERVATION_NOT_FOUND', 'the reservation does not hold this promotion', {
        promotionId: p.promotionId,
      });
    }
    case 'CancelPromotion': {
      const p = existing(state);
      if (p.status === 'CANCELLED') return [];
      // A checkout in flight keeps it; a used or expired one has nothing left to cancel.
      if (p.status === 'RESERVED')
        throw checkoutError('PROMOTION_ALREADY_RESERVED', 'held by a checkout: release it first', {
          promotionId: p.promotionId,
        });
      if (p.status !== 'ISSUED')
        throw checkoutError('PROMOTION_NOT_APPLICABLE', `promotion ${p.promotionId} is ${p.status}`, {
          promotionId: p.promotionId,
        });
      return [{ type: 'PromotionCancelled', data: { promotionId: p.promotionId, cancelledAt: command.now } }];
    }
    case 'ExpirePromotion': {
      // The timer: only an unused promotion past its validity expires; one held by a checkout expires when returned.
      if (state.status !== 'ISSUED' || !ended(state, command.now)) return [];
      return [{ type: 'PromotionExpired', data: { promotionId: state.promotionId, expiredAt: command.now } }];
    }
  }
}

function evolve(state: IssuedPromotionState, event: IssuedPromotionEvent): IssuedPromotionState {
  if (event.type === 'PromotionIssued') return { ...event.data, status: 'ISSUED', reservationKey: null, orderId: null };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'PromotionReserved':
      return { ...state, status: 'RESERVED', reservationKey: event.data.reservationKey, orderId: event.data.orderId };
    case 'PromotionUsed':
      return { ...state, status: 'USED' };
    case 'PromotionReturned':
      return { ...state, status: 'ISSUED' };
    case 'PromotionCancelled':
      return { ...state, status: 'CANCELLED' };
    case 'PromotionExpired':
      return { ...state, status: 'EXPIRED' };
  }
}

export const issuedPromotionDecider: Decider<IssuedPromotionCommand, IssuedPromotionState, IssuedPromotionEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
