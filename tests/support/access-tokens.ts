/**
 * Users' access tokens for tests of contexts that only verify them (files), until the identity context that issues
 * them is on the same branch. The ONE place to switch to real tokens: `accessTokenOptions` becomes `{}` and
 * `issueTestAccessToken` runs identity's login flow (or its issuer) on `app`; the tests that call them stay as they
 * are. The stand-in is a Map of opaque random tokens: no production code knows it.
 */
import { randomBytes } from 'node:crypto';
import type {
  AccessTokenCheck,
  AccessTokenClaims,
  AccessTokenVerifier,
} from '../../application/shared/access-tokens.js';
import type { TestApp } from './app.js';

const issued = new Map<string, AccessTokenClaims & { revoked: boolean }>();

const verifier: AccessTokenVerifier = {
  async verify(token): Promise<AccessTokenCheck> {
    const claims = issued.get(token);
    if (!claims) return { ok: false, reason: 'TOKEN_INVALID' };
    if (claims.revoked) return { ok: false, reason: 'TOKEN_REVOKED' };
    if (Date.parse(claims.expiresAt) <= Date.now()) return { ok: false, reason: 'TOKEN_EXPIRED' };
    const { revoked: _revoked, ...valid } = claims;
    return { ok: true, claims: valid };
  },
};

/** Spread into startTestApp's options by a test that calls issueTestAccessToken. */
export const accessTokenOptions: { accessTokens?: AccessTokenVerifier } = { accessTokens: verifier };

/** An access token `app` accepts for `claims.userId` (defaults: the demo mini-app, scope auth, valid for an hour). */
export async function issueTestAccessToken(
  _app: TestApp,
  claims: Pick<AccessTokenClaims, 'userId'> & Partial<AccessTokenClaims>,
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  issued.set(token, {
    miniAppId: 'demo-miniapp',
    scopes: ['auth'],
    grantId: randomBytes(8).toString('hex'),
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    ...claims,
    revoked: false,
  });
  return token;
}

/** An access token of `userId` that has expired. */
export const issueExpiredTestAccessToken = (app: TestApp, userId: string) =>
  issueTestAccessToken(app, { userId, expiresAt: new Date(Date.now() - 1000).toISOString() });

/** Revokes a token issueTestAccessToken gave. */
export async function revokeTestAccessToken(_app: TestApp, token: string): Promise<void> {
  const claims = issued.get(token);
  if (claims) claims.revoked = true;
}
