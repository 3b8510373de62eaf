/**
 * The gateway's part of the operator API (api/shared/operator-api.ts): how its typed codes are answered, and its
 * path parameters. A code added to gatewayAdminErrorCodes does not compile until it is mapped here.
 */
import type { Request } from 'express';
import { clientIdPattern, partyIdPattern, type GatewayAdminErrorCode } from '../../application/gateway/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { operatorErrors, operatorStatus } from '../shared/operator-api.js';

const { invalid, notFound, conflict } = operatorStatus;

export const gatewayOperatorErrors = operatorErrors<GatewayAdminErrorCode>('gateway operator', {
  INVALID_PARTY: invalid,
  PARTY_NOT_FOUND: notFound,
  PARTY_EXISTS: conflict,
  CREDENTIAL_NOT_FOUND: notFound,
  CLIENT_ID_TAKEN: conflict,
  CREDENTIAL_SHOWN_ONCE: conflict,
  IDEMPOTENCY_KEY_REUSED: conflict,
});

function param(req: Request, name: string, pattern: RegExp, rule: string): string {
  const value = req.params[name] ?? '';
  if (!pattern.test(value)) throw new HttpError(400, 'OPS-REQ-001', `${name}: must be ${rule}`, { field: name });
  return value;
}

export const partyIdOf = (req: Request) =>
  param(req, 'partyId', partyIdPattern, '3 to 64 lower-case letters, digits or "-"');
export const clientIdOf = (req: Request) =>
  param(req, 'clientId', clientIdPattern, '3 to 64 letters, digits, ".", "_" or "-"');
