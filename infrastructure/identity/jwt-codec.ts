/**
 * Access tokens as JWTs (RFC 9068 profile; docs/identity.md, "Access tokens"), signed and read with jose: header
 * `typ: at+jwt`, `alg` EdDSA or ES256 and the signing key's `kid`; claims `iss`, `sub` (the user), `aud` and
 * `client_id` (the mini-app), `scope`, `sid` (the grant), `iat`, `exp`, `jti`. Reading tries every configured key
 * (by kid), so tokens signed before a rotation stay valid for their life.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, createLocalJWKSet, errors, importJWK, jwtVerify, type JWK } from 'jose';
import {
  isScope,
  type AccessTokenCodec,
  type AccessTokenPayload,
  type AccessTokenRead,
  type PublicKeySet,
  type Scope,
} from '../../application/identity/index.js';
import type { Clock } from '../../application/shared/clock.js';
import type { SigningKey } from './secrets.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The public half of a signing key, as the JWKS serves it. */
function publicJwk(key: SigningKey): JWK {
  const { kty, crv, x, y } = key.jwk;
  return { kty, crv, x, ...(y !== undefined && { y }), kid: key.kid, alg: key.alg, use: 'sig' };
}

/** Verified tokens kept per process (the oldest goes first): some 10 MB at most. */
const maxVerified = 10_000;

export function createJwtCodec(options: {
  keys: readonly SigningKey[];
  issuer: string;
  clock: Clock;
}): AccessTokenCodec {
  const { keys, issuer, clock } = options;
  const signer = keys[0]!;
  // Imported once, awaited by each signing; the key was checked when IDENTITY_SIGNING_KEYS was read (secrets.ts).
  const privateKey = importJWK(signer.jwk, signer.alg);
  privateKey.catch(() => undefined);
  const publicKeys: PublicKeySet = { keys: keys.map(publicJwk) as Record<string, unknown>[] };
  const keySet = createLocalJWKSet({ keys: keys.map(publicJwk) });
  // Tokens whose signature, issuer and claims were checked, by their text: checking a signature again cost 130–190 µs
  // (EdDSA, ES256) on every request a customer makes; the keys only change with a restart. Expiry is checked at every
  // read; the grant (revocation) is the verifier's, read every time.
  const verified = new Map<string, AccessTokenPayload>();

  return {
    sign: async (p: AccessTokenPayload) =>
      new SignJWT({ scope: p.scopes.join(' '), client_id: p.miniAppId, sid: p.grantId })
        .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setSubject(p.userId)
        .setAudience(p.miniAppId)
        .setIssuedAt(seconds(p.issuedAt))
        .setExpirationTime(seconds(p.expiresAt))
        .setJti(randomUUID())
        .sign(await privateKey),

    async read(token: string): Promise<AccessTokenRead> {
      const known = verified.get(token);
      if (known) {
        // As jose decides: expired once its exp (whole seconds) is not after the current second.
        if (known.expiresAt.getTime() / 1000 <= Math.floor(clock.now().getTime() / 1000)) {
          verified.delete(token);
          return { ok: false, reason: 'TOKEN_EXPIRED' };
        }
        return { ok: true, payload: known };
      }
      let payload;
      try {
        ({ payload } = await jwtVerify(token, keySet, {
          issuer,
          typ: 'at+jwt',
          algorithms: ['EdDSA', 'ES256'],
          currentDate: clock.now(),
          requiredClaims: ['sub', 'aud', 'exp', 'iat', 'scope', 'sid'],
        }));
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID' };
      }
      const { sub, aud, scope, sid, iat, exp } = payload;
      const scopes = typeof scope === 'string' ? scope.split(' ') : [];
      if (
        typeof sub !== 'string' ||
        typeof aud !== 'string' ||
        typeof sid !== 'string' ||
        !uuidPattern.test(sid) ||
        typeof iat !== 'number' ||
        typeof exp !== 'number' ||
        scopes.length === 0 ||
        !scopes.every(isScope)
      )
        return { ok: false, reason: 'TOKEN_INVALID' };
      const read: AccessTokenPayload = {
        userId: sub,
        miniAppId: aud,
        scopes: scopes as Scope[],
        grantId: sid,
        issuedAt: new Date(iat * 1000),
        expiresAt: new Date(exp * 1000),
      };
      if (verified.size >= maxVerified) verified.delete(verified.keys().next().value!);
      verified.set(token, read);
      return { ok: true, payload: read };
    },

    publicKeys: () => publicKeys,
  };
}
