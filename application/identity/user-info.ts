/**
 * GET /open/identity/v1/userinfo's work (docs/identity.md, "User info"): the user's profile as the token's scopes
 * and the user's current consent allow, read from the user's stream (not a projection). `profile` is required;
 * `phone_number` needs `phone`, `email` needs `email`, each only while the user's consent for that mini-app stands.
 */
import { consentOf, identityError, type Gender } from '../../domain/identity/index.js';
import type { AccessTokenClaims } from '../shared/access-tokens.js';
import type { UserDirectory } from './users.js';

export interface UserInfo {
  userId: string;
  name: string;
  dateOfBirth: string | null;
  gender: Gender | null;
  avatarUrl: string | null;
  /** Present only with scope and consent `phone`. */
  phoneNumber?: string | null;
  /** Present only with scope and consent `email`. */
  email?: string | null;
}

export class UserInfoService {
  constructor(private readonly deps: { users: UserDirectory }) {}

  async read(claims: AccessTokenClaims): Promise<UserInfo> {
    if (!claims.scopes.includes('profile'))
      throw identityError('SCOPE_MISSING', 'the access token does not carry the profile scope');
    const state = await this.deps.users.state(claims.userId);
    if (state.status === 'NONE')
      throw identityError('USER_NOT_FOUND', `user ${claims.userId} does not exist`, { userId: claims.userId });
    const consent = consentOf(state, claims.miniAppId);
    if (!consent.includes('profile'))
      throw identityError('CONSENT_WITHDRAWN', 'the user withdrew consent to profile for this mini-app');
    const allowed = (scope: 'phone' | 'email') => claims.scopes.includes(scope) && consent.includes(scope);
    const { profile } = state;
    return {
      userId: state.userId,
      name: profile.name,
      dateOfBirth: profile.dateOfBirth,
      gender: profile.gender,
      avatarUrl: profile.avatarUrl,
      ...(allowed('phone') && { phoneNumber: profile.phoneNumber }),
      ...(allowed('email') && { email: profile.email }),
    };
  }
}
