/**
 * Errors of the OAuth interface (/oauth2; docs/identity.md, "Token endpoint errors"): RFC 6749 §5.2 bodies
 * `{error, error_description}`, never cached. The token codes map through a table typed by tokenErrorCodes; the
 * gateway's refusals through the gateway front. A 401 invalid_client carries a Basic challenge when the client used
 * Basic or sent no credentials (RFC 6749 §5.2).
 */
import type { Response } from 'express';
import type { TokenErrorCode } from '../../application/identity/index.js';
import type { GatewayFront } from '../shared/gateway-front.js';
import type { InterfaceErrors } from '../shared/interface-errors.js';
import type { RouteSpec } from '../shared/route-spec.js';

export const oauthBasePath = '/oauth2';

/** Set by the token routes when a Basic challenge belongs on an invalid_client answer. */
export const basicChallengeLocal = 'oauthBasicChallenge';

export function sendOAuthError(res: Response, status: number, code: string, message: string): void {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  if (status === 401 && code === 'invalid_client' && res.locals[basicChallengeLocal] === true)
    res.set('WWW-Authenticate', 'Basic realm="oauth2", charset="UTF-8"');
  res.status(status).json({ error: code, error_description: message });
}

const invalidGrant = [400, 'invalid_grant'] as const;

export const oauthErrors: InterfaceErrors<TokenErrorCode> = {
  name: 'oauth2',
  table: {
    CLIENT_AUTHENTICATION_FAILED: [401, 'invalid_client'],
    AUTH_CODE_UNKNOWN: invalidGrant,
    AUTH_CODE_EXPIRED: invalidGrant,
    AUTH_CODE_ALREADY_REDEEMED: invalidGrant,
    AUTH_CODE_OTHER_CLIENT: invalidGrant,
    REFRESH_TOKEN_UNKNOWN: invalidGrant,
    REFRESH_TOKEN_EXPIRED: invalidGrant,
    REFRESH_TOKEN_REUSED: invalidGrant,
    GRANT_REVOKED: invalidGrant,
    GRANT_OTHER_CLIENT: invalidGrant,
    SCOPE_EXCEEDS_GRANT: [400, 'invalid_scope'],
  },
  malformed: { invalid: 'invalid_request', tooLarge: 'invalid_request', unsupportedMediaType: 'invalid_request' },
  unknownEndpoint: 'not_found',
  internal: { code: 'server_error', message: 'internal error' },
  send: (res, status, code, message) => sendOAuthError(res, status, code, message),
};

/** The gateway in front of the token routes: its refusals as RFC 6749 errors (slow_down: RFC 8628's "ask less often"). */
export const oauthGateway = (routes: readonly RouteSpec[]): GatewayFront => ({
  interface: 'identity',
  envHeader: 'optional',
  routes,
  refusals: {
    CREDENTIALS_MISSING: [401, 'invalid_client'],
    CREDENTIALS_INVALID: [401, 'invalid_client'],
    ENVIRONMENT_MISSING: [400, 'invalid_request'],
    ENVIRONMENT_MISMATCH: [400, 'invalid_request'],
    INTERFACE_NOT_GRANTED: [403, 'access_denied'],
    IP_NOT_ALLOWED: [403, 'access_denied'],
    RATE_LIMITED: [429, 'slow_down'],
  },
  send: (res, status, code, message) => sendOAuthError(res, status, code, message),
});
