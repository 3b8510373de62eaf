/**
 * The identity context's AccessTokenVerifier (application/shared/access-tokens.ts): a token's signature, issuer and
 * expiry (the codec), then its grant, read from the grant's stream, so a revocation holds at once in every process
 * (docs/identity.md, "Access tokens"). Only the stream's first and last events are read (tokenGrantStatus): the same
 * work for a grant refreshed once or ten thousand times.
 */
import { identityDecoders, streams, tokenGrantStatus } from '../../domain/identity/index.js';
import type { AccessTokenCheck, AccessTokenVerifier } from '../shared/access-tokens.js';
import type { EventStore } from '../shared/event-store.js';
import type { AccessTokenCodec } from './token-codec.js';

/** Longer bearer values are refused unread: a token this service signs is well under 1 KB. */
const maxTokenLength = 4096;

export class IdentityAccessTokens implements AccessTokenVerifier {
  constructor(private readonly deps: { store: EventStore; codec: AccessTokenCodec }) {}

  async verify(token: string): Promise<AccessTokenCheck> {
    if (token.length === 0 || token.length > maxTokenLength) return { ok: false, reason: 'TOKEN_INVALID' };
    const read = await this.deps.codec.read(token);
    if (!read.ok) return read;
    const { payload } = read;
    const stream = streams.tokenGrant(payload.grantId);
    const [[first], last] = await Promise.all([
      this.deps.store.readStream(stream, { limit: 1 }),
      this.deps.store.readLastEvent(stream),
    ]);
    const decode = identityDecoders.tokenGrant;
    const status = tokenGrantStatus(first && decode.decode(first), last && decode.decode(last));
    // A signed token whose grant this store does not hold (another deployment's keys?) is not ours.
    if (!status || status.grant.userId !== payload.userId || status.grant.miniAppId !== payload.miniAppId)
      return { ok: false, reason: 'TOKEN_INVALID' };
    if (status.revoked) return { ok: false, reason: 'TOKEN_REVOKED' };
    return {
      ok: true,
      claims: {
        userId: payload.userId,
        miniAppId: payload.miniAppId,
        scopes: [...payload.scopes],
        grantId: payload.grantId,
        expiresAt: payload.expiresAt.toISOString(),
      },
    };
  }
}
