/**
 * The order view's part of the operator API (api/shared/operator-api.ts): how its typed credential codes are
 * answered. A code added to credentialErrorCodes does not compile until it is mapped here.
 */
import type { CredentialErrorCode } from '../../application/orders/index.js';
import { operatorErrors, operatorStatus } from '../shared/operator-api.js';

const { invalid, notFound, conflict } = operatorStatus;

export const ordersOperatorErrors = operatorErrors<CredentialErrorCode>('orders operator', {
  INVALID_CREDENTIAL_REQUEST: invalid,
  ORDER_MERCHANT_NOT_FOUND: notFound,
  ORDER_KEY_NOT_FOUND: notFound,
  ORDER_MERCHANT_EXISTS: conflict,
  ORDER_KEY_ACTIVE_EXISTS: conflict,
  ORDER_KEY_NOT_ACTIVE: conflict,
  ORDER_KEY_SHOWN_ONCE: conflict,
  IDEMPOTENCY_KEY_REUSED: conflict,
});
