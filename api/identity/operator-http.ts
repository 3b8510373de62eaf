/**
 * The identity context's part of the operator API (api/shared/operator-api.ts): how its typed codes are answered.
 * A code added to identityAdminErrorCodes does not compile until it is mapped here.
 */
import type { IdentityAdminErrorCode } from '../../application/identity/index.js';
import { operatorErrors, operatorStatus } from '../shared/operator-api.js';

const { invalid, notFound, conflict } = operatorStatus;

export const identityOperatorErrors = operatorErrors<IdentityAdminErrorCode>('identity operator', {
  INVALID_USER: invalid,
  USER_NOT_FOUND: notFound,
  USER_EXISTS: conflict,
  INVALID_MINI_APP: invalid,
  MINI_APP_NOT_FOUND: notFound,
  MINI_APP_EXISTS: conflict,
  SCOPE_NOT_CONSENTED: conflict,
  SANDBOX_DISABLED: notFound,
  IDEMPOTENCY_KEY_REUSED: conflict,
});
