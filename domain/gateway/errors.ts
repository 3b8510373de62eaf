/**
 * Why a gateway command was refused: the gateway context's typed codes. Only the operator API receives them
 * (api/gateway/operator-http.ts maps every one); the gateway's refusals of a request are GatewayRefusal
 * (application/shared/gateway.ts), which each interface answers in its own envelope. docs/gateway.md.
 */
import { DomainError } from '../shared/errors.js';

/** Operators' commands on parties and their credentials. */
export const gatewayAdminErrorCodes = [
  /** Operator input breaks a rule; details.field names the field. */
  'INVALID_PARTY',
  'PARTY_NOT_FOUND',
  'PARTY_EXISTS',
  'CREDENTIAL_NOT_FOUND',
  /** Another credential (of this party or another) holds the client id; client ids are never reused. */
  'CLIENT_ID_TAKEN',
  /** A resend of an issue carried out before: its secret was shown once and cannot be shown again. */
  'CREDENTIAL_SHOWN_ONCE',
  /** A different request under a used X-Idempotency-Key (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
] as const;

export type GatewayAdminErrorCode = (typeof gatewayAdminErrorCodes)[number];

export type GatewayErrorCode = GatewayAdminErrorCode;

export type GatewayError = DomainError<GatewayErrorCode>;

export function gatewayError(
  code: GatewayErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): GatewayError {
  return new DomainError(code, message, details);
}

/** Operator input that breaks a rule, naming the field as the operator API names it. */
export const invalidParty = (field: string, message: string) => gatewayError('INVALID_PARTY', message, { field });
