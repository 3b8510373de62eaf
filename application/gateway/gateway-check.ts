/**
 * The gateway's check of one request (docs/gateway.md, "The check"), in this order: client credentials, the
 * credential's environment, the `env` header, the IP allowlist, the interface grant, the rate limits (the party's,
 * then its user's where the request names one). Lookups come
 * from the directory's cache (no database round trip on a hit); the secret is compared as sha256 in constant time
 * and never logged.
 */
import { clientIdPattern, gatewayEnvironments, type GatewayEnvironment } from '../../domain/gateway/index.js';
import type { Clock } from '../shared/clock.js';
import type { GatewayCaller, GatewayInterface, GatewayRefusal } from '../shared/gateway.js';
import { secretMatches } from './client-secrets.js';
import { rateLimitKey, type GatewayDirectory, type PartyRules } from './directory.js';
import type { RateLimit, RateLimiter } from './rate-limiter.js';

export interface GatewayRequest {
  clientId?: string;
  clientSecret?: string;
  /** The `env` header as sent. */
  env?: string;
  /** The interface's rule for it (GatewayFront.envHeader). */
  envHeader: 'required' | 'optional' | 'ignored';
  interface: GatewayInterface;
  /** The endpoint the request matched (`POST /vouchers/reserve`), or `*` for a path none of the interface's takes. */
  endpoint: string;
  /** The caller's address (the socket's, or X-Forwarded-For's through trusted proxies). */
  clientIp?: string;
  /** The end user the request acts for, as the interface's user header names it (GatewayFront.userHeader). */
  userId?: string;
}

export type GatewayDecision =
  | { ok: true; caller: GatewayCaller }
  | { ok: false; reason: GatewayRefusal; message: string; retryAfterSeconds?: number };

export interface GatewaySettings {
  /** This deployment's environment: a credential must be issued for it, an `env` header must name it. */
  environment: GatewayEnvironment;
  /** The limit of an endpoint the party has no override for. */
  defaultLimit: RateLimit;
  /** Each user's limit per party and endpoint, where the request names its user; null: none. */
  userLimit: RateLimit | null;
}

/** Longer secrets than any issued or imported one are refused without hashing them. */
const maxSecretLength = 256;

const refuse = (reason: GatewayRefusal, message: string): GatewayDecision => ({ ok: false, reason, message });

const limited = (retryAfterSeconds: number, limit: RateLimit, endpoint: string, what: string): GatewayDecision => ({
  ok: false,
  reason: 'RATE_LIMITED',
  message: `${what} of ${limit.points} requests per ${limit.windowSeconds} s reached for ${endpoint}; retry after ${retryAfterSeconds} s`,
  retryAfterSeconds,
});

export class GatewayCheck {
  constructor(
    private readonly deps: {
      directory: GatewayDirectory;
      rateLimiter: RateLimiter;
      clock: Clock;
      settings: GatewaySettings;
    },
  ) {}

  get environment(): GatewayEnvironment {
    return this.deps.settings.environment;
  }

  async check(request: GatewayRequest): Promise<GatewayDecision> {
    const { directory, settings } = this.deps;
    const { clientId, clientSecret } = request;
    if (!clientId || !clientSecret)
      return refuse('CREDENTIALS_MISSING', 'client_id and client_secret headers are required');
    const invalid = refuse('CREDENTIALS_INVALID', 'client_id or client_secret is invalid');
    if (!clientIdPattern.test(clientId) || clientSecret.length > maxSecretLength) return invalid;

    const nowMs = this.deps.clock.now().getTime();
    const client = await directory.client(clientId, nowMs);
    if (!client || !secretMatches(clientSecret, client.secretHash)) return invalid;
    // Only a caller who knows the secret learns why a known pair is refused.
    if (client.revoked) return refuse('CREDENTIALS_INVALID', 'client_id has been revoked');
    if (!client.environments.includes(settings.environment))
      return refuse('CREDENTIALS_INVALID', `client_id is not issued for this environment (${settings.environment})`);

    const env = request.envHeader === 'ignored' ? undefined : request.env?.trim().toLowerCase();
    if (env === undefined || env === '') {
      if (request.envHeader === 'required')
        return refuse('ENVIRONMENT_MISSING', `env header is required (${gatewayEnvironments.join(', ')})`);
    } else if (env !== settings.environment) {
      return refuse('ENVIRONMENT_MISMATCH', `env header must name this environment (${settings.environment})`);
    }

    const party = await directory.party(client.partyId, nowMs);
    if (!party) return invalid;
    if (party.allowlist && !party.allowlist.allows(request.clientIp))
      return refuse('IP_NOT_ALLOWED', 'the caller’s address is not on the party’s IP allowlist');
    if (!party.interfaces.has(request.interface))
      return refuse('INTERFACE_NOT_GRANTED', `the client is not granted the ${request.interface} interface`);

    const limit = this.limitOf(party, request.interface, request.endpoint);
    const key = `${party.partyId}|${request.interface}|${request.endpoint}`;
    const decision = await this.deps.rateLimiter.consume(key, limit);
    if (!decision.allowed) return limited(decision.retryAfterSeconds, limit, request.endpoint, 'rate limit');
    // Per user within the party: one user (or one stolen session) cannot spend the party's whole budget. Counted
    // under the party, so a party naming another's users spends only its own users' counts.
    const { userLimit } = settings;
    if (userLimit && request.userId) {
      const userKey = `${key}|user:${request.userId}`;
      const perUser = await this.deps.rateLimiter.consume(userKey, userLimit);
      if (!perUser.allowed)
        return limited(perUser.retryAfterSeconds, userLimit, request.endpoint, "the user's rate limit");
    }
    return { ok: true, caller: { partyId: party.partyId, clientId, environment: settings.environment } };
  }

  /** The party's limit for the endpoint, else its limit for every endpoint of the interface, else the default. */
  private limitOf(party: PartyRules, gatewayInterface: GatewayInterface, endpoint: string): RateLimit {
    return (
      party.rateLimits.get(rateLimitKey(gatewayInterface, endpoint)) ??
      party.rateLimits.get(rateLimitKey(gatewayInterface, '*')) ??
      this.deps.settings.defaultLimit
    );
  }
}
