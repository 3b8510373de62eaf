/**
 * Errors of the user-info interface (/open/identity/v1; docs/identity.md, "User info codes"): the envelope
 * `{code, message, data}` with a numeric `code` in the payment hub's style (0 success, 4xxx refusals, 5000). Token
 * refusals carry an RFC 6750 `WWW-Authenticate: Bearer` challenge.
 */
import type { Response } from 'express';
import type { UserInfoErrorCode } from '../../application/identity/index.js';
import type { AccessTokenRefusal } from '../../application/shared/access-tokens.js';
import type { GatewayFront } from '../shared/gateway-front.js';
import type { InterfaceErrors } from '../shared/interface-errors.js';
import type { RouteSpec } from '../shared/route-spec.js';

export const userInfoBasePath = '/open/identity/v1';

/** The interface's codes (numbers, sent as JSON numbers). */
export const userInfoCodes = {
  success: 0,
  invalidRequest: 4001,
  unknownEndpoint: 4004,
  gatewayCredentialsInvalid: 4100,
  gatewayCredentialsMissing: 4101,
  tokenMissing: 4110,
  tokenInvalid: 4111,
  tokenExpired: 4112,
  tokenRevoked: 4113,
  forbidden: 4200,
  scopeMissing: 4201,
  consentWithdrawn: 4202,
  userNotFound: 4302,
  tooManyRequests: 429,
  internal: 5000,
} as const;

const c = userInfoCodes;

/** Why a bearer token was refused → status and code. */
export const tokenRefusals: { readonly [R in AccessTokenRefusal]: readonly [number, number, string] } = {
  TOKEN_INVALID: [401, c.tokenInvalid, 'the access token is not valid'],
  TOKEN_EXPIRED: [401, c.tokenExpired, 'the access token has expired'],
  TOKEN_REVOKED: [401, c.tokenRevoked, 'the access token has been revoked'],
};

/** RFC 6750 §3 challenges, by the code answered. */
const challenges: Record<number, string> = {
  [c.tokenMissing]: 'Bearer realm="identity"',
  [c.tokenInvalid]: 'Bearer realm="identity", error="invalid_token"',
  [c.tokenExpired]: 'Bearer realm="identity", error="invalid_token", error_description="the access token expired"',
  [c.tokenRevoked]: 'Bearer realm="identity", error="invalid_token", error_description="the access token was revoked"',
  [c.scopeMissing]: 'Bearer realm="identity", error="insufficient_scope", scope="profile"',
};

function send(res: Response, status: number, code: string, message: string, data: unknown): void {
  const numeric = Number(code);
  const challenge = challenges[numeric];
  if (challenge) res.set('WWW-Authenticate', challenge);
  res.set('Cache-Control', 'no-store');
  res.status(status).json({ code: numeric, message, data: data ?? null });
}

const s = (code: number) => String(code);

export const userInfoErrors: InterfaceErrors<UserInfoErrorCode> = {
  name: 'identity userinfo',
  table: {
    SCOPE_MISSING: [403, s(c.scopeMissing)],
    CONSENT_WITHDRAWN: [403, s(c.consentWithdrawn)],
    USER_NOT_FOUND: [404, s(c.userNotFound)],
  },
  malformed: { invalid: s(c.invalidRequest), tooLarge: s(c.invalidRequest), unsupportedMediaType: s(c.invalidRequest) },
  unknownEndpoint: s(c.unknownEndpoint),
  internal: { code: s(c.internal), message: 'Internal server error' },
  send,
};

/** The gateway in front of the user-info interface, its refusals in the interface's codes. */
export const userInfoGateway = (routes: readonly RouteSpec[]): GatewayFront => ({
  interface: 'identity',
  envHeader: 'optional',
  routes,
  refusals: {
    CREDENTIALS_MISSING: [401, s(c.gatewayCredentialsMissing)],
    CREDENTIALS_INVALID: [401, s(c.gatewayCredentialsInvalid)],
    ENVIRONMENT_MISSING: [400, s(c.invalidRequest)],
    ENVIRONMENT_MISMATCH: [400, s(c.invalidRequest)],
    INTERFACE_NOT_GRANTED: [403, s(c.forbidden)],
    IP_NOT_ALLOWED: [403, s(c.forbidden)],
    RATE_LIMITED: [429, s(c.tooManyRequests)],
  },
  send,
});
