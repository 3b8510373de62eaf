/** An issued promotion's life, given/when/then (domain/checkout/issued-promotion.ts). */
import type { IssuedPromotionEvent } from '../../../../domain/checkout/events.js';
import { issuedPromotionDecider, type IssuedPromotionCommand } from '../../../../domain/checkout/issued-promotion.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(issuedPromotionDecider);
const at = '2026-06-01T10:00:00.000Z';
const late = '2026-07-01T00:00:00.000Z'; // its validity ends here

const issue: Extract<IssuedPromotionCommand, { type: 'IssuePromotion' }> = {
  type: 'IssuePromotion',
  promotionId: 42,
  promotionMasterId: 7,
  userId: 'u1',
  encryptedCode: 'k1.sealed-code',
  encryptedPin: null,
  validFrom: '2026-05-01T00:00:00.000Z',
  validUntil: late,
  source: { kind: 'OPERATOR' },
  now: at,
};
const { type: _t, now: _n, ...issuedData } = issue;
const issued: IssuedPromotionEvent = { type: 'PromotionIssued', data: { ...issuedData, issuedAt: at } };
const reserved = (key = 'k1'): IssuedPromotionEvent => ({
  type: 'PromotionReserved',
  data: { promotionId: 42, reservationKey: key, orderId: `order-${key}`, reservedAt: at },
});
const used = (key = 'k1'): IssuedPromotionEvent => ({
  type: 'PromotionUsed',
  data: { promotionId: 42, reservationKey: key, usedAt: at },
});
const returned = (reason: 'RELEASED' | 'REFUNDED' | 'EXPIRED', key = 'k1', when = at): IssuedPromotionEvent => ({
  type: 'PromotionReturned',
  data: { promotionId: 42, reservationKey: key, reason, returnedAt: when },
});
const expired = (when = late): IssuedPromotionEvent => ({
  type: 'PromotionExpired',
  data: { promotionId: 42, expiredAt: when },
});
const cancelled: IssuedPromotionEvent = { type: 'PromotionCancelled', data: { promotionId: 42, cancelledAt: at } };

const reserve = (key = 'k1', userId = 'u1', now = at): IssuedPromotionCommand => ({
  type: 'ReservePromotion',
  userId,
  reservationKey: key,
  orderId: `order-${key}`,
  now,
});

describe('issued promotion decider', () => {
  describe('issue', () => {
    it('issues into the wallet', () => given([]).when(issue).then([issued]));
    it('issuing the same again (a replayed shop commit) changes nothing', () => given([issued]).when(issue).then([]));
    it('the same again with its code encrypted anew changes nothing', () =>
      given([issued])
        .when({ ...issue, encryptedCode: 'k1.sealed-again' })
        .then([]));
    it('refuses another promotion under a used id', () =>
      given([issued])
        .when({ ...issue, userId: 'u9' })
        .thenRejects('PROMOTION_EXISTS', { promotionId: 42 }));
  });

  describe('reserve', () => {
    it('ISSUED → RESERVED for the owner', () => given([issued]).when(reserve()).then([reserved()]));
    it('the same reservation again is a no-op', () => given([issued, reserved()]).when(reserve()).then([]));
    it('a second checkout loses: PROMOTION_ALREADY_RESERVED', () =>
      given([issued, reserved()]).when(reserve('k2')).thenRejects('PROMOTION_ALREADY_RESERVED'));
    it("another user's promotion: PROMOTION_NOT_OWNED", () =>
      given([issued]).when(reserve('k1', 'u2')).thenRejects('PROMOTION_NOT_OWNED', { promotionId: 42 }));
    it('past its validity: PROMOTION_EXPIRED', () =>
      given([issued])
        .when(reserve('k1', 'u1', late))
        .thenRejects('PROMOTION_EXPIRED'));
    it('before its validity: PROMOTION_NOT_APPLICABLE', () =>
      given([issued])
        .when(reserve('k1', 'u1', '2026-04-30T23:59:59.000Z'))
        .thenRejects('PROMOTION_NOT_APPLICABLE'));
    it('used, cancelled or expired: refused', () => {
      given([issued, reserved(), used()]).when(reserve('k2')).thenRejects('PROMOTION_NOT_APPLICABLE');
      given([issued, cancelled]).when(reserve()).thenRejects('PROMOTION_NOT_APPLICABLE');
      given([issued, expired()]).when(reserve()).thenRejects('PROMOTION_EXPIRED');
    });
    it('a missing promotion: PROMOTION_NOT_FOUND', () => given([]).when(reserve()).thenRejects('PROMOTION_NOT_FOUND'));
    it('released, it can be reserved again', () =>
      given([issued, reserved(), returned('RELEASED')])
        .when(reserve('k2'))
        .then([reserved('k2')]));
  });

  describe('confirm, release, refund', () => {
    const confirm = (key = 'k1'): IssuedPromotionCommand => ({
      type: 'ConfirmPromotion',
      reservationKey: key,
      now: at,
    });
    const release = (key = 'k1', now = at): IssuedPromotionCommand => ({
      type: 'ReleasePromotion',
      reservationKey: key,
      now,
    });
    const refund = (key = 'k1', now = at): IssuedPromotionCommand => ({
      type: 'RefundPromotion',
      reservationKey: key,
      now,
    });

    it('confirm: RESERVED → USED; again: no-op; by another reservation: not found', () => {
      given([issued, reserved()]).when(confirm()).then([used()]);
      given([issued, reserved(), used()]).when(confirm()).then([]);
      given([issued, reserved()]).when(confirm('k2')).thenRejects('PROMOTION_RESERVATION_NOT_FOUND');
      given([issued, reserved(), returned('RELEASED')])
        .when(confirm())
        .thenRejects('PROMOTION_RESERVATION_NOT_FOUND');
    });
    it('release: RESERVED → ISSUED; again: no-op; after confirm: PROMOTION_ALREADY_USED', () => {
      given([issued, reserved()])
        .when(release())
        .then([returned('RELEASED')]);
      given([issued, reserved(), returned('RELEASED')])
        .when(release())
        .then([]);
      given([issued, reserved(), used()]).when(release()).thenRejects('PROMOTION_ALREADY_USED');
      given([issued]).when(release()).thenRejects('PROMOTION_RESERVATION_NOT_FOUND');
    });
    it('a reservation past its time-to-live returns it with reason EXPIRED', () =>
      given([issued, reserved()])
        .when({ type: 'ReleasePromotion', reservationKey: 'k1', reason: 'EXPIRED', now: at })
        .then([
          {
            type: 'PromotionReturned',
            data: { promotionId: 42, reservationKey: 'k1', reason: 'EXPIRED', returnedAt: at },
          },
        ]));
    it('release past its validity returns and expires it at once', () =>
      given([issued, reserved()])
        .when(release('k1', late))
        .then([returned('RELEASED', 'k1', late), expired()]));
    it('refund: USED → ISSUED; again: no-op; before confirm: PROMOTION_NOT_USED', () => {
      given([issued, reserved(), used()])
        .when(refund())
        .then([returned('REFUNDED')]);
      given([issued, reserved(), used(), returned('REFUNDED')])
        .when(refund())
        .then([]);
      given([issued, reserved()]).when(refund()).thenRejects('PROMOTION_NOT_USED');
      given([issued, reserved(), used()]).when(refund('k2')).thenRejects('PROMOTION_RESERVATION_NOT_FOUND');
    });
  });

  describe('cancel and expire', () => {
    const cancel: IssuedPromotionCommand = { type: 'CancelPromotion', now: at };
    const expire = (now: string): IssuedPromotionCommand => ({ type: 'ExpirePromotion', now });
    it('an operator cancels an unused one; again: no-op; held by a checkout: refused', () => {
      given([issued]).when(cancel).then([cancelled]);
      given([issued, cancelled]).when(cancel).then([]);
      given([issued, reserved()]).when(cancel).thenRejects('PROMOTION_ALREADY_RESERVED');
      given([issued, reserved(), used()]).when(cancel).thenRejects('PROMOTION_NOT_APPLICABLE');
    });
    it('its timer expires it at the end of validity, not before, and never one in use or gone', () => {
      given([issued]).when(expire(late)).then([expired()]);
      given([issued]).when(expire(at)).then([]);
      given([issued, reserved()]).when(expire(late)).then([]);
      given([issued, reserved(), used()]).when(expire(late)).then([]);
      given([issued, expired()]).when(expire(late)).then([]);
      given([]).when(expire(late)).then([]);
    });
  });
});
