/**
 * Users' access tokens for tests of contexts that only verify them (files, later the order view): real ones, from the
 * identity context of the test app, through its operator and OAuth endpoints (docs/identity.md, "Login flow"). An
 * expired token is signed with the app's own key (the identity context has no way to issue one in the past).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { AccessTokenClaims } from '../../application/shared/access-tokens.js';
import { systemClock } from '../../application/shared/clock.js';
import { createJwtCodec } from '../../infrastructure/identity/jwt-codec.js';
import { call, expectOk, operatorHeaders } from '../api/support.js';
import type { TestApp } from './app.js';
import { gatewayHeaders } from './gateway.js';

/** What each test app was given already: users, and mini-apps with their secrets. */
const known = new WeakMap<TestApp, { users: Set<string>; miniApps: Map<string, string> }>();

function registry(app: TestApp) {
  let entry = known.get(app);
  if (!entry) known.set(app, (entry = { users: new Set(), miniApps: new Map() }));
  return entry;
}

async function ensureUser(app: TestApp, userId: string): Promise<void> {
  const { users } = registry(app);
  if (users.has(userId)) return;
  const res = await call(app.baseUrl, 'POST', '/operator/v1/identity/users', {
    headers: operatorHeaders(),
    json: { user_id: userId, name: `User ${userId}`, phone_number: '0901112233', email: `${userId}@example.vn` },
  });
  expectOk(res, 201);
  users.add(userId);
}

async function ensureMiniApp(app: TestApp, miniAppId: string): Promise<string> {
  const { miniApps } = registry(app);
  const known = miniApps.get(miniAppId);
  if (known) return known;
  const res = await call<{ client_secret: string }>(app.baseUrl, 'POST', '/operator/v1/identity/mini-apps', {
    headers: operatorHeaders(),
    json: { miniapp_id: miniAppId, name: `Mini-app ${miniAppId}`, redirect_uris: [] },
  });
  const secret = expectOk(res, 201).client_secret;
  miniApps.set(miniAppId, secret);
  return secret;
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * An access token `app` accepts for `claims.userId` (default: the mini-app `test-miniapp`, scope `auth`), from the
 * login flow: the user and mini-app registered, consent given, a code issued and exchanged.
 */
export async function issueTestAccessToken(
  app: TestApp,
  claims: Pick<AccessTokenClaims, 'userId'> & Partial<Pick<AccessTokenClaims, 'miniAppId' | 'scopes'>>,
): Promise<string> {
  const miniAppId = claims.miniAppId ?? 'test-miniapp';
  const scopes = claims.scopes ?? ['auth'];
  await ensureUser(app, claims.userId);
  const secret = await ensureMiniApp(app, miniAppId);
  const consented = scopes.filter((s) => s !== 'auth');
  if (consented.length)
    expectOk(
      await call(app.baseUrl, 'PUT', `/operator/v1/identity/users/${claims.userId}/consents/${miniAppId}`, {
        headers: operatorHeaders(),
        json: { scopes: consented },
      }),
    );
  const code = await call<{ code: string }>(app.baseUrl, 'POST', '/operator/v1/identity/auth-codes', {
    headers: operatorHeaders(),
    json: { user_id: claims.userId, miniapp_id: miniAppId, scopes },
  });
  const exchanged = await call<{ access_token: string }>(app.baseUrl, 'POST', '/oauth2/token/exchange', {
    headers: {
      ...gatewayHeaders(),
      Authorization: basic(miniAppId, secret),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    rawBody: new URLSearchParams({ grant_type: 'authorization_code', code: expectOk(code, 201).code }).toString(),
  });
  expect(exchanged.status, exchanged.text).to.equal(200);
  return (exchanged.body as unknown as { access_token: string }).access_token;
}

/** An access token of `userId` that expired a minute ago, signed with the app's current key. */
export async function issueExpiredTestAccessToken(app: TestApp, userId: string): Promise<string> {
  const codec = createJwtCodec({
    keys: app.secrets.IDENTITY_SIGNING_KEYS,
    issuer: app.container.config.IDENTITY_ISSUER,
    clock: systemClock,
  });
  const now = Date.now();
  return codec.sign({
    userId,
    miniAppId: 'test-miniapp',
    scopes: ['auth'],
    grantId: randomUUID(),
    issuedAt: new Date(now - 3_600_000),
    expiresAt: new Date(now - 60_000),
  });
}

/** The Authorization header of the mini-app `miniAppId` at the token endpoint (HTTP Basic), registering it if new. */
export async function testMiniAppBasic(app: TestApp, miniAppId = 'test-miniapp'): Promise<string> {
  return basic(miniAppId, await ensureMiniApp(app, miniAppId));
}

/** Revokes a token issueTestAccessToken gave (RFC 7009, as its mini-app). */
export async function revokeTestAccessToken(app: TestApp, token: string, miniAppId = 'test-miniapp'): Promise<void> {
  const secret = await ensureMiniApp(app, miniAppId);
  const res = await call(app.baseUrl, 'POST', '/oauth2/token/revoke', {
    headers: {
      ...gatewayHeaders(),
      Authorization: basic(miniAppId, secret),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    rawBody: new URLSearchParams({ token }).toString(),
  });
  expect(res.status, res.text).to.equal(200);
}
