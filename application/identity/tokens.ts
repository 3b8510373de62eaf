/**
 * The token endpoint's work (docs/identity.md, "Token exchange"): a mini-app backend, authenticated by its id and
 * secret, exchanges a code for an access token and a refresh token, refreshes (rotating the refresh token), or
 * revokes. A code is redeemed at most once: two parallel exchanges append to its stream at the same expected
 * version and the loser, retried by the command handler, finds it redeemed. A code or refresh token presented again
 * revokes the grant it produced.
 */
import { randomUUID } from 'node:crypto';
import { grantIssuedFor, identityError, type RevocationReason, type Scope } from '../../domain/identity/index.js';
import { isDomainError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import { identityAggregates } from './aggregates.js';
import { after, type TokenLifetimes } from './lifetimes.js';
import type { MiniAppRegistry, MiniAppView } from './mini-apps.js';
import { randomSecret, secretHash } from './secrets.js';
import type { AccessTokenCodec } from './token-codec.js';

/** What a mini-app backend authenticates with (HTTP Basic or the client_id/client_secret parameters). */
export interface ClientCredentials {
  miniAppId: string;
  secret: string;
}

/** RFC 6749 §5.1, before the interface names its fields. */
export interface IssuedTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  refreshToken: string;
  scopes: Scope[];
  userId: string;
  grantId: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A refresh token is `<grantId>.<43 random characters>`: the grant is found from the token, its hash compared. */
function grantIdOf(refreshToken: string): string | null {
  const dot = refreshToken.indexOf('.');
  const grantId = refreshToken.slice(0, dot);
  return dot > 0 && uuidPattern.test(grantId) && refreshToken.length <= 128 ? grantId : null;
}

/** A second command run for a request names itself after the first (a context names one command). */
const followUp = (context: CommandContext, what: string): CommandContext => ({
  ...context,
  commandId: nameBasedUuid(`${context.commandId}/${what}`),
  idempotency: undefined,
});

export class TokenService {
  private readonly codes;
  private readonly grants;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      miniApps: MiniAppRegistry;
      codec: AccessTokenCodec;
      lifetimes: TokenLifetimes;
    },
  ) {
    const aggregates = identityAggregates(deps);
    this.codes = aggregates.authCode;
    this.grants = aggregates.tokenGrant;
  }

  private async client(credentials: ClientCredentials): Promise<MiniAppView> {
    const miniApp = await this.deps.miniApps.authenticate(credentials.miniAppId, credentials.secret);
    if (!miniApp) throw identityError('CLIENT_AUTHENTICATION_FAILED', 'client authentication failed');
    return miniApp;
  }

  private async tokens(
    grant: { grantId: string; userId: string; miniAppId: string },
    scopes: Scope[],
    refreshToken: string,
    issuedAt: string,
  ): Promise<IssuedTokens> {
    const seconds = this.deps.lifetimes.accessTokenSeconds;
    const at = new Date(issuedAt);
    const accessToken = await this.deps.codec.sign({
      ...grant,
      scopes,
      issuedAt: at,
      expiresAt: new Date(at.getTime() + seconds * 1000),
    });
    return { accessToken, expiresIn: seconds, refreshToken, scopes, userId: grant.userId, grantId: grant.grantId };
  }

  /** grant_type=authorization_code. */
  async exchangeCode(context: CommandContext, credentials: ClientCredentials, code: string): Promise<IssuedTokens> {
    const client = await this.client(credentials);
    const codeHash = secretHash(code);
    const grantId = randomUUID();
    const refreshToken = `${grantId}.${randomSecret()}`;
    const refreshSeconds = this.deps.lifetimes.refreshTokenSeconds;
    const result = await this.codes
      .handle(
        context,
        codeHash,
        (now) => ({ type: 'RedeemAuthCode' as const, codeHash, miniAppId: client.miniAppId, grantId, now }),
        {
          // The grant opens in the same append as the redemption: no code is redeemed without its grant, nor the
          // reverse.
          sideWrites: ([redeemed]) =>
            redeemed?.type === 'AuthCodeRedeemed'
              ? [
                  {
                    streamName: this.grants.streamName(grantId),
                    event: grantIssuedFor(redeemed, {
                      refreshTokenHash: secretHash(refreshToken),
                      refreshExpiresAt: after(new Date(redeemed.data.redeemedAt), refreshSeconds),
                    }),
                    expectedVersion: 'no_stream',
                    placement: 'after',
                  },
                ]
              : [],
        },
      )
      .catch(async (error: unknown) => {
        if (
          isDomainError(error) &&
          error.code === 'AUTH_CODE_ALREADY_REDEEMED' &&
          typeof error.details.grantId === 'string'
        )
          await this.revokeGrant(followUp(context, 'revoke'), error.details.grantId, 'AUTH_CODE_REPLAYED');
        throw error;
      });
    const redeemed = result.events[0];
    if (result.replayed || redeemed?.type !== 'AuthCodeRedeemed')
      throw new Error('a code exchange answered without redeeming the code');
    const { userId, miniAppId, scopes, redeemedAt } = redeemed.data;
    return this.tokens({ grantId, userId, miniAppId }, scopes, refreshToken, redeemedAt);
  }

  /** grant_type=refresh_token: a new access token and a new refresh token; the presented one stops working. */
  async refresh(
    context: CommandContext,
    credentials: ClientCredentials,
    refreshToken: string,
    requestedScopes: readonly Scope[] | null,
  ): Promise<IssuedTokens> {
    const client = await this.client(credentials);
    const grantId = grantIdOf(refreshToken);
    if (!grantId) throw identityError('REFRESH_TOKEN_UNKNOWN', 'the refresh token is not known');
    const newRefreshToken = `${grantId}.${randomSecret()}`;
    const refreshSeconds = this.deps.lifetimes.refreshTokenSeconds;
    const { state, events } = await this.grants.handle(context, grantId, (now) => ({
      type: 'RefreshTokenGrant' as const,
      grantId,
      miniAppId: client.miniAppId,
      presentedHash: secretHash(refreshToken),
      newRefreshTokenHash: secretHash(newRefreshToken),
      newRefreshExpiresAt: after(new Date(now), refreshSeconds),
      requestedScopes,
      now,
    }));
    const refreshed = events[0];
    if (refreshed?.type === 'TokenGrantRevoked')
      throw identityError('REFRESH_TOKEN_REUSED', 'the refresh token was already used: the grant is revoked');
    if (refreshed?.type !== 'TokenGrantRefreshed' || state.status === 'NONE')
      throw new Error('a refresh answered without rotating the refresh token');
    const scopes = requestedScopes ? state.scopes.filter((s) => requestedScopes.includes(s)) : [...state.scopes];
    return this.tokens(state, scopes, newRefreshToken, refreshed.data.refreshedAt);
  }

  /**
   * RFC 7009: revokes the grant of a refresh token or an access token of this mini-app (an access token is a JWT:
   * revoking it revokes its whole grant). Unknown, expired or other mini-apps' tokens are left alone, without telling.
   */
  async revoke(context: CommandContext, credentials: ClientCredentials, token: string): Promise<void> {
    const client = await this.client(credentials);
    const grantId = await this.grantOfToken(token);
    if (!grantId) return;
    const state = await this.grants.state(grantId);
    if (state.status !== 'ACTIVE' || state.miniAppId !== client.miniAppId) return;
    await this.revokeGrant(context, grantId, 'REVOKED_BY_CLIENT');
  }

  /** The grant a presented token proves (a refresh token it holds or held, or a valid access token of it). */
  private async grantOfToken(token: string): Promise<string | null> {
    const grantId = grantIdOf(token);
    if (grantId) {
      const state = await this.grants.state(grantId);
      if (state.status === 'NONE') return null;
      const hash = secretHash(token);
      return state.refreshTokenHash === hash || state.rotatedRefreshTokenHashes.includes(hash) ? grantId : null;
    }
    const read = await this.deps.codec.read(token);
    return read.ok ? read.payload.grantId : null;
  }

  private async revokeGrant(context: CommandContext, grantId: string, reason: RevocationReason): Promise<void> {
    await this.grants.handle(context, grantId, (now) => ({ type: 'RevokeTokenGrant' as const, grantId, reason, now }));
  }
}
