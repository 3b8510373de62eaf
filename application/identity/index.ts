/**
 * The identity context's application layer, as the API and the composition root see it: its services, their views
 * and ports. Import this file from outside application/identity (docs/conventions.md, "Modules").
 */
export * from './access-token-verifier.js';
export * from './auth-codes.js';
export * from './lifetimes.js';
export * from './mini-apps.js';
export * from './token-codec.js';
export * from './tokens.js';
export * from './user-info.js';
export * from './users.js';

import type { AccessTokenVerifier } from '../shared/access-tokens.js';
import type { AuthCodeIssuer } from './auth-codes.js';
import type { MiniAppRegistry } from './mini-apps.js';
import type { AccessTokenCodec } from './token-codec.js';
import type { TokenService } from './tokens.js';
import type { UserInfoService } from './user-info.js';
import type { UserDirectory } from './users.js';

/** The identity context's services, as its module builds them (infrastructure/identity) and its API uses them. */
export interface IdentityServices {
  /** The user directory; `users.find(userId)` is the lookup other contexts use (the hub's enrichment). */
  users: UserDirectory;
  miniApps: MiniAppRegistry;
  authCodes: AuthCodeIssuer;
  tokens: TokenService;
  userInfo: UserInfoService;
  accessTokens: AccessTokenVerifier;
  /** The public signing keys (JWKS). */
  keys: Pick<AccessTokenCodec, 'publicKeys'>;
}

// The domain's vocabulary the interfaces need (scopes, genders, error codes) reaches them through this file: api/
// imports application/ only.
export * from '../../domain/identity/index.js';
