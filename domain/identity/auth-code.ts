/**
 * One-time authorization codes (stream authCode-<sha256 hex of the code>): what the host app's `getAuthCode` hands a
 * mini-app, bound to one user, one mini-app and its scopes, short-lived, redeemed at most once
 * (docs/identity.md, "Authorization codes"). Redeeming opens a token grant: its first event is built from the
 * redemption (grantIssuedFor) and written in the same append.
 */
import type { Decider } from '../shared/decider.js';
import { identityError } from './errors.js';
import type { AuthCodeEvent, AuthCodeRedeemed, TokenGrantIssued } from './events.js';
import { canonicalScopes, isConsentScope, type ConsentScope, type Scope } from './scopes.js';

export type AuthCodeState =
  | { readonly status: 'NONE' }
  | {
      readonly status: 'ISSUED' | 'REDEEMED';
      readonly codeHash: string;
      readonly userId: string;
      readonly miniAppId: string;
      readonly scopes: readonly Scope[];
      readonly expiresAt: string;
      /** The grant its exchange opened (REDEEMED). */
      readonly grantId: string | null;
    };

export type AuthCodeCommand =
  | {
      type: 'IssueAuthCode';
      codeHash: string;
      userId: string;
      miniAppId: string;
      scopes: readonly Scope[];
      /** What the user consented to for the mini-app, read from the user's stream by the caller. */
      consented: readonly ConsentScope[];
      expiresAt: string;
      now: string;
    }
  | {
      type: 'RedeemAuthCode';
      codeHash: string;
      /** The mini-app that presents the code (authenticated). */
      miniAppId: string;
      grantId: string;
      now: string;
    };

function decide(command: AuthCodeCommand, state: AuthCodeState): AuthCodeEvent[] {
  switch (command.type) {
    case 'IssueAuthCode': {
      // 256 random bits: a second code with the same hash is a bug, not a refusal.
      if (state.status !== 'NONE') throw new Error('an authorization code was issued twice');
      if (command.scopes.length === 0) throw new Error('an authorization code needs at least one scope');
      if (command.expiresAt <= command.now) throw new Error('an authorization code must expire after it is issued');
      const missing = command.scopes.filter((s) => isConsentScope(s) && !command.consented.includes(s));
      if (missing.length)
        throw identityError(
          'SCOPE_NOT_CONSENTED',
          `the user has not consented to ${missing.join(', ')} for mini-app ${command.miniAppId}`,
          { scopes: missing },
        );
      const { codeHash, userId, miniAppId, expiresAt, now } = command;
      const scopes = canonicalScopes(command.scopes);
      return [{ type: 'AuthCodeIssued', data: { codeHash, userId, miniAppId, scopes, issuedAt: now, expiresAt } }];
    }
    case 'RedeemAuthCode': {
      if (state.status === 'NONE') throw identityError('AUTH_CODE_UNKNOWN', 'the authorization code is not known');
      // Checked before its use: another mini-app presenting a code neither learns nor changes anything about it.
      if (state.miniAppId !== command.miniAppId)
        throw identityError('AUTH_CODE_OTHER_CLIENT', 'the authorization code was issued to another mini-app');
      if (state.status === 'REDEEMED')
        throw identityError('AUTH_CODE_ALREADY_REDEEMED', 'the authorization code was already exchanged', {
          grantId: state.grantId,
        });
      if (command.now >= state.expiresAt)
        throw identityError('AUTH_CODE_EXPIRED', 'the authorization code has expired', { expiresAt: state.expiresAt });
      const { userId, miniAppId, scopes } = state;
      return [
        {
          type: 'AuthCodeRedeemed',
          data: {
            codeHash: state.codeHash,
            grantId: command.grantId,
            userId,
            miniAppId,
            scopes: [...scopes],
            redeemedAt: command.now,
          },
        },
      ];
    }
  }
}

function evolve(state: AuthCodeState, event: AuthCodeEvent): AuthCodeState {
  switch (event.type) {
    case 'AuthCodeIssued': {
      const { codeHash, userId, miniAppId, scopes, expiresAt } = event.data;
      return { status: 'ISSUED', codeHash, userId, miniAppId, scopes, expiresAt, grantId: null };
    }
    case 'AuthCodeRedeemed':
      if (state.status === 'NONE') return state;
      return { ...state, status: 'REDEEMED', grantId: event.data.grantId };
  }
}

export const authCodeDecider: Decider<AuthCodeCommand, AuthCodeState, AuthCodeEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/** The grant a redemption opens, with its first refresh token (only its hash). */
export function grantIssuedFor(
  redeemed: AuthCodeRedeemed,
  refresh: { refreshTokenHash: string; refreshExpiresAt: string },
): TokenGrantIssued {
  const { grantId, userId, miniAppId, scopes, codeHash, redeemedAt } = redeemed.data;
  return {
    type: 'TokenGrantIssued',
    data: { grantId, userId, miniAppId, scopes, codeHash, ...refresh, issuedAt: redeemedAt },
  };
}
