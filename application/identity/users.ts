/**
 * The user directory (stream identityUser-<userId>), through the command handler: operators and the demo seed
 * register users and change profiles; the consent page and operators record consent. Reads come from the aggregate
 * (docs/identity.md, "Users and consent"). `find` is how another context looks a user up by id (the payment hub's
 * X-MiniApp-User-ID enrichment).
 */
import {
  consentOf,
  identityError,
  userDecider,
  type ConsentScope,
  type UserProfile,
  type UserState,
} from '../../domain/identity/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import { identityAggregates } from './aggregates.js';

export interface UserView extends UserProfile {
  userId: string;
  /** Consent scopes per mini-app id (mini-apps the user withdrew everything from are left out). */
  consents: { miniAppId: string; scopes: ConsentScope[] }[];
  registeredAt: string;
  updatedAt: string;
}

type Active = Extract<UserState, { status: 'ACTIVE' }>;

export function userView(state: Active): UserView {
  return {
    userId: state.userId,
    ...state.profile,
    consents: Object.keys(state.consents)
      .sort()
      .map((miniAppId) => ({ miniAppId, scopes: [...consentOf(state, miniAppId)] }))
      .filter((c) => c.scopes.length > 0),
    registeredAt: state.registeredAt,
    updatedAt: state.updatedAt,
  };
}

export class UserDirectory {
  private readonly users;

  constructor(deps: { store: EventStore; clock: Clock }) {
    this.users = identityAggregates(deps).user;
  }

  private command(context: CommandContext, userId: string, command: Parameters<typeof userDecider.decide>[0]) {
    return this.users.handle(context, userId, (now) => ({ ...command, now }));
  }

  async register(context: CommandContext, userId: string, profile: UserProfile): Promise<UserView> {
    const { state } = await this.command(context, userId, { type: 'RegisterUser', userId, profile, now: '' });
    return userView(state as Active);
  }

  async changeProfile(context: CommandContext, userId: string, changes: Partial<UserProfile>): Promise<UserView> {
    const { state } = await this.command(context, userId, { type: 'ChangeUserProfile', userId, changes, now: '' });
    return userView(state as Active);
  }

  /** Grants `granted` and withdraws `withdrawn` for the mini-app (which must exist: the caller checks it). */
  async recordConsent(
    context: CommandContext,
    userId: string,
    miniAppId: string,
    consent: { granted: readonly ConsentScope[]; withdrawn: readonly ConsentScope[] },
  ): Promise<UserView> {
    const { state } = await this.command(context, userId, {
      type: 'RecordConsent',
      userId,
      miniAppId,
      ...consent,
      now: '',
    });
    return userView(state as Active);
  }

  /** The user's state as its stream says. */
  async state(userId: string): Promise<UserState> {
    return this.users.state(userId);
  }

  /** The scopes the user consents to share with the mini-app now (none for an unknown user): the consents port. */
  async consentedScopes(userId: string, miniAppId: string): Promise<readonly ConsentScope[]> {
    const state = await this.state(userId);
    return state.status === 'NONE' ? [] : consentOf(state, miniAppId);
  }

  /** The user, or null when the directory holds no such id. */
  async find(userId: string): Promise<UserView | null> {
    const state = await this.state(userId);
    return state.status === 'NONE' ? null : userView(state);
  }

  async get(userId: string): Promise<UserView> {
    const user = await this.find(userId);
    if (!user) throw identityError('USER_NOT_FOUND', `user ${userId} does not exist`, { userId });
    return user;
  }
}
