/**
 * The shop's part of the operator API (api/shared/operator-api.ts): how its typed admin codes are answered, and
 * the shop's own path parameters. Its routes are declared in operator-routes.ts and mounted by operator-router.ts.
 */
import type { Request } from 'express';
import { type AdminErrorCode, merchantIdPattern } from '../../application/shop/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { operatorErrors, operatorStatus } from '../shared/operator-api.js';

const { invalid, notFound, conflict } = operatorStatus;

/** Every code a shop operator command can be refused with, and what the operator API answers for it. */
export const shopOperatorErrors = operatorErrors<AdminErrorCode>('shop operator', {
  INVALID_INPUT: invalid,
  INVALID_POOL: invalid,
  POOL_NOT_FOUND: notFound,
  MERCHANT_NOT_FOUND: notFound,
  MERCHANT_EXISTS: conflict,
  API_KEY_NOT_FOUND: notFound,
  API_KEY_SHOWN_ONCE: conflict,
  CATEGORY_NOT_FOUND: notFound,
  CATEGORY_EXISTS: conflict,
  CAMPAIGN_NOT_FOUND: notFound,
  CAMPAIGN_EXISTS: conflict,
  CAMPAIGN_CODE_EXISTS: conflict,
  CAMPAIGN_ENDED: conflict,
  INVALID_STATUS_TRANSITION: conflict,
  BANNER_NOT_FOUND: notFound,
  IDEMPOTENCY_KEY_REUSED: conflict,
});

export function merchantIdParam(req: Request): string {
  const merchantId = req.params.merchantId ?? '';
  if (!merchantIdPattern.test(merchantId))
    throw new HttpError(400, 'OPS-REQ-001', 'merchantId: must be 1 to 64 letters, digits, "_" or "-"', {
      field: 'merchantId',
    });
  return merchantId;
}
