/**
 * The identity context's module, infrastructure half: its configuration slice, its secrets (the signing keys) and
 * how its services are built from the shared adapters. It provides the access-token verifier every context gets
 * (application/shared/access-tokens.ts). The only file of infrastructure/identity the composition root imports
 * (docs/conventions.md, "Modules").
 */
import {
  AuthCodeIssuer,
  IdentityAccessTokens,
  MiniAppRegistry,
  TokenService,
  UserDirectory,
  UserInfoService,
  type IdentityServices,
} from '../../application/identity/index.js';
import type { BuiltContext, ContextDeps } from '../shared/context.js';
import { sandboxOn } from '../shared/sandboxes.js';
import type { IdentityConfig } from './config.js';
import { createJwtCodec } from './jwt-codec.js';
import type { IdentitySecrets } from './secrets.js';

export { identityConfig, type IdentityConfig } from './config.js';
export { identitySecrets, newSigningKeyJwk, readSigningKeys, type IdentitySecrets } from './secrets.js';
export { identityDemo, seedIdentityDemo, type IdentityDemoData } from './demo-seed.js';

/** Needs only the event store's side of the shared adapters (so fast tests can build it on an in-memory store too). */
export function buildIdentity(
  deps: Pick<ContextDeps<IdentityConfig, IdentitySecrets>, 'config' | 'secrets' | 'store' | 'clock'>,
): BuiltContext<IdentityServices> {
  const { config, store, clock } = deps;
  const lifetimes = {
    authCodeSeconds: config.IDENTITY_AUTH_CODE_TTL_SECONDS,
    accessTokenSeconds: config.IDENTITY_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenSeconds: config.IDENTITY_REFRESH_TOKEN_TTL_SECONDS,
  };
  const codec = createJwtCodec({
    keys: deps.secrets.IDENTITY_SIGNING_KEYS,
    issuer: config.IDENTITY_ISSUER,
    clock,
  });
  const users = new UserDirectory({ store, clock });
  const miniApps = new MiniAppRegistry({ store, clock });
  const accessTokens = new IdentityAccessTokens({ store, codec });
  // Production runs it only when SANDBOXES_ALLOWED names it (infrastructure/shared/sandboxes.ts).
  const sandbox = sandboxOn(config, 'identity', config.IDENTITY_SANDBOX);
  return {
    services: {
      users,
      miniApps,
      authCodes: new AuthCodeIssuer({ store, clock, users, miniApps, lifetimes, sandbox }),
      tokens: new TokenService({ store, clock, miniApps, codec, lifetimes }),
      userInfo: new UserInfoService({ users }),
      accessTokens,
      keys: codec,
    },
    jobs: [],
    stop: async () => {},
    provides: {
      accessTokens,
      users,
      consents: { scopes: (userId: string, miniAppId: string) => users.consentedScopes(userId, miniAppId) },
    },
  };
}
