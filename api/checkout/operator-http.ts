/**
 * The checkout's part of the operator API (api/shared/operator-api.ts): how its typed promotion master codes are
 * answered. A code added to promotionMasterErrorCodes does not compile until it is mapped here.
 */
import type { IssuedPromotionErrorCode, PromotionMasterErrorCode } from '../../application/checkout/index.js';
import { operatorErrors, operatorStatus } from '../shared/operator-api.js';

const { invalid, notFound, conflict } = operatorStatus;

export const checkoutOperatorErrors = operatorErrors<PromotionMasterErrorCode | IssuedPromotionErrorCode>(
  'checkout operator',
  {
    INVALID_PROMOTION_MASTER: invalid,
    PROMOTION_MASTER_NOT_FOUND: notFound,
    PROMOTION_MASTER_EXISTS: conflict,
    IDEMPOTENCY_KEY_REUSED: conflict,
    PROMOTION_NOT_FOUND: notFound,
    // A cancel of a promotion a checkout holds, or one used or expired: the state refuses it.
    PROMOTION_ALREADY_RESERVED: conflict,
    PROMOTION_NOT_APPLICABLE: conflict,
    // Raised only on the checkout interface; listed because the group is typed as one.
    PROMOTION_NOT_OWNED: conflict,
    PROMOTION_EXPIRED: conflict,
    PROMOTION_RESERVATION_NOT_FOUND: conflict,
    PROMOTION_ALREADY_USED: conflict,
    PROMOTION_NOT_USED: conflict,
    PROMOTION_EXISTS: conflict,
  },
);
