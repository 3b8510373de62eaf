/**
 * The checkout's part of the operator API (api/shared/operator-api.ts): how its typed promotion master codes are
 * answered. A code added to promotionMasterErrorCodes does not compile until it is mapped here.
 */
import type { PromotionMasterErrorCode } from '../../application/checkout/index.js';
import { operatorErrors, operatorStatus } from '../shared/operator-api.js';

const { invalid, notFound, conflict } = operatorStatus;

export const checkoutOperatorErrors = operatorErrors<PromotionMasterErrorCode>('checkout operator', {
  INVALID_PROMOTION_MASTER: invalid,
  PROMOTION_MASTER_NOT_FOUND: notFound,
  PROMOTION_MASTER_EXISTS: conflict,
  IDEMPOTENCY_KEY_REUSED: conflict,
});
