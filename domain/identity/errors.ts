/**
 * Why an identity command or check was refused: the identity context's typed codes, in groups by the interface that
 * can receive them. Each interface maps its group through its own table (api/identity/*): a code added to a group
 * does not compile until that interface maps it. Codes and answers: docs/identity.md, "Codes".
 */
import { DomainError } from '../shared/errors.js';

/** The operator endpoints (users, mini-apps, the sandbox's auth codes). */
export const identityAdminErrorCodes = [
  /** Operator input breaks a rule; details.field names the field. */
  'INVALID_USER',
  'USER_NOT_FOUND',
  'USER_EXISTS',
  'INVALID_MINI_APP',
  'MINI_APP_NOT_FOUND',
  'MINI_APP_EXISTS',
  /** A code asked for a consent scope the user has not granted to the mini-app. */
  'SCOPE_NOT_CONSENTED',
  /** The identity sandbox (the host app's stand-in) is switched off (IDENTITY_SANDBOX). */
  'SANDBOX_DISABLED',
  /** A different request under a used X-Idempotency-Key (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
] as const;
export type IdentityAdminErrorCode = (typeof identityAdminErrorCodes)[number];

/** The token endpoints (/oauth2/token/...). */
export const tokenErrorCodes = [
  /** Unknown mini-app, or a wrong secret. */
  'CLIENT_AUTHENTICATION_FAILED',
  'AUTH_CODE_UNKNOWN',
  'AUTH_CODE_EXPIRED',
  /** Presented again after it was exchanged: the grant it produced is revoked (RFC 6749 §4.1.2). */
  'AUTH_CODE_ALREADY_REDEEMED',
  /** Issued to another mini-app than the one presenting it. */
  'AUTH_CODE_OTHER_CLIENT',
  'REFRESH_TOKEN_UNKNOWN',
  'REFRESH_TOKEN_EXPIRED',
  /** A refresh token already rotated was presented: the grant is revoked. */
  'REFRESH_TOKEN_REUSED',
  'GRANT_REVOKED',
  'GRANT_OTHER_CLIENT',
  /** A refresh asked for a scope the grant does not hold. */
  'SCOPE_EXCEEDS_GRANT',
] as const;
export type TokenErrorCode = (typeof tokenErrorCodes)[number];

/** The user-info interface (/open/identity/v1/userinfo). */
export const userInfoErrorCodes = [
  'USER_NOT_FOUND',
  /** The token does not carry `profile`. */
  'SCOPE_MISSING',
  /** The user withdrew consent to `profile` for the token's mini-app after the token was issued. */
  'CONSENT_WITHDRAWN',
] as const;
export type UserInfoErrorCode = (typeof userInfoErrorCodes)[number];

/** The sandbox consent page. */
export const consentPageErrorCodes = [
  'USER_NOT_FOUND',
  'MINI_APP_NOT_FOUND',
  'SCOPE_NOT_CONSENTED',
  'SANDBOX_DISABLED',
  /** redirect_uri is not one the mini-app registered: never redirected to. */
  'REDIRECT_URI_NOT_REGISTERED',
] as const;
export type ConsentPageErrorCode = (typeof consentPageErrorCodes)[number];

export type IdentityErrorCode = IdentityAdminErrorCode | TokenErrorCode | UserInfoErrorCode | ConsentPageErrorCode;

export type IdentityError = DomainError<IdentityErrorCode>;

export function identityError(
  code: IdentityErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): IdentityError {
  return new DomainError(code, message, details);
}
