/**
 * Mini-apps (stream miniApp-<miniAppId>): the OAuth clients of the login flow. A mini-app's backend authenticates at
 * the token endpoint with its id and secret; only the secret's sha256 is stored (docs/identity.md, "Mini-apps").
 */
import type { Decider } from '../shared/decider.js';
import { identityError } from './errors.js';
import type { MiniAppEvent } from './events.js';

export type MiniAppState =
  | { readonly status: 'NONE' }
  | {
      readonly status: 'ACTIVE';
      readonly miniAppId: string;
      readonly name: string;
      readonly redirectUris: readonly string[];
      readonly secretHash: string;
      readonly registeredAt: string;
      readonly secretRotatedAt: string | null;
    };

export type MiniAppCommand =
  | {
      type: 'RegisterMiniApp';
      miniAppId: string;
      name: string;
      redirectUris: readonly string[];
      secretHash: string;
      now: string;
    }
  | { type: 'RotateMiniAppSecret'; miniAppId: string; secretHash: string; now: string };

function decide(command: MiniAppCommand, state: MiniAppState): MiniAppEvent[] {
  switch (command.type) {
    case 'RegisterMiniApp': {
      if (state.status !== 'NONE')
        throw identityError('MINI_APP_EXISTS', `mini-app ${command.miniAppId} already exists`);
      if (new Set(command.redirectUris).size !== command.redirectUris.length)
        throw identityError('INVALID_MINI_APP', 'redirect_uris must not repeat a URI', { field: 'redirect_uris' });
      const { miniAppId, name, secretHash, now } = command;
      return [
        {
          type: 'MiniAppRegistered',
          data: { miniAppId, name, redirectUris: [...command.redirectUris], secretHash, registeredAt: now },
        },
      ];
    }
    case 'RotateMiniAppSecret':
      if (state.status === 'NONE')
        throw identityError('MINI_APP_NOT_FOUND', `mini-app ${command.miniAppId} does not exist`, {
          miniAppId: command.miniAppId,
        });
      return [
        {
          type: 'MiniAppSecretRotated',
          data: { miniAppId: command.miniAppId, secretHash: command.secretHash, rotatedAt: command.now },
        },
      ];
  }
}

function evolve(state: MiniAppState, event: MiniAppEvent): MiniAppState {
  switch (event.type) {
    case 'MiniAppRegistered':
      return { status: 'ACTIVE', ...event.data, secretRotatedAt: null };
    case 'MiniAppSecretRotated':
      if (state.status === 'NONE') return state;
      return { ...state, secretHash: event.data.secretHash, secretRotatedAt: event.data.rotatedAt };
  }
}

export const miniAppDecider: Decider<MiniAppCommand, MiniAppState, MiniAppEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
