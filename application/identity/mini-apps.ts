/**
 * Mini-apps (stream miniApp-<miniAppId>), the clients of the login flow: registered by operators with a generated
 * secret shown once, stored as its sha256; rotating replaces it at once. `authenticate` checks a backend's
 * client_id/client_secret in constant time (docs/identity.md, "Mini-apps").
 */
import { identityIdPattern, identityError, miniAppDecider, type MiniAppState } from '../../domain/identity/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import { identityAggregates } from './aggregates.js';
import { matchesHash, randomSecret, secretHash } from './secrets.js';

export interface MiniAppView {
  miniAppId: string;
  name: string;
  redirectUris: string[];
  registeredAt: string;
  secretRotatedAt: string | null;
}

/** A change that made a secret: shown once. Null when the answer is a replay of an earlier command (never stored). */
export interface MiniAppWithSecret {
  miniApp: MiniAppView;
  clientSecret: string | null;
}

type Active = Extract<MiniAppState, { status: 'ACTIVE' }>;

const view = (s: Active): MiniAppView => ({
  miniAppId: s.miniAppId,
  name: s.name,
  redirectUris: [...s.redirectUris],
  registeredAt: s.registeredAt,
  secretRotatedAt: s.secretRotatedAt,
});

/** Client secrets carry a prefix, so that one pasted into a log or a ticket is recognised for what it is. */
const newClientSecret = () => `mas_${randomSecret()}`;

/** Longer presented secrets are refused without hashing. */
const maxSecretLength = 256;

export class MiniAppRegistry {
  private readonly miniApps;

  constructor(deps: { store: EventStore; clock: Clock }) {
    this.miniApps = identityAggregates(deps).miniApp;
  }

  private command(context: CommandContext, miniAppId: string, command: Parameters<typeof miniAppDecider.decide>[0]) {
    return this.miniApps.handle(context, miniAppId, (now) => ({ ...command, now }));
  }

  async register(
    context: CommandContext,
    input: { miniAppId: string; name: string; redirectUris: readonly string[] },
  ): Promise<MiniAppWithSecret> {
    const secret = newClientSecret();
    const result = await this.command(context, input.miniAppId, {
      type: 'RegisterMiniApp',
      ...input,
      secretHash: secretHash(secret),
      now: '',
    });
    return { miniApp: view(result.state as Active), clientSecret: result.replayed ? null : secret };
  }

  async rotateSecret(context: CommandContext, miniAppId: string): Promise<MiniAppWithSecret> {
    const secret = newClientSecret();
    const result = await this.command(context, miniAppId, {
      type: 'RotateMiniAppSecret',
      miniAppId,
      secretHash: secretHash(secret),
      now: '',
    });
    return { miniApp: view(result.state as Active), clientSecret: result.replayed ? null : secret };
  }

  state(miniAppId: string): Promise<MiniAppState> {
    return this.miniApps.state(miniAppId);
  }

  async get(miniAppId: string): Promise<MiniAppView> {
    const state = await this.state(miniAppId);
    if (state.status === 'NONE')
      throw identityError('MINI_APP_NOT_FOUND', `mini-app ${miniAppId} does not exist`, { miniAppId });
    return view(state);
  }

  /** The mini-app whose id and secret these are, or null (unknown id or wrong secret: the caller cannot tell which). */
  async authenticate(miniAppId: string, secret: string): Promise<MiniAppView | null> {
    if (!identityIdPattern.test(miniAppId) || secret.length === 0 || secret.length > maxSecretLength) return null;
    const state = await this.state(miniAppId);
    if (state.status === 'NONE') return null;
    return matchesHash(secret, state.secretHash) ? view(state) : null;
  }
}
