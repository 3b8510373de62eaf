/**
 * Users of the host app (stream identityUser-<userId>): the directory the login flow reads and the payment hub
 * enriches X-MiniApp-User-ID from. Operators and the demo seed register them; a user grants or withdraws consent per
 * mini-app and scope (docs/identity.md, "Users and consent"). Forms are the API's job; rules against the state and
 * `now` are decided here.
 */
import type { Decider } from '../shared/decider.js';
import { identityError } from './errors.js';
import type { ConsentGranted, ConsentWithdrawn, UserEvent, UserProfile } from './events.js';
import { canonicalScopes, type ConsentScope } from './scopes.js';

export type UserState =
  | { readonly status: 'NONE' }
  | {
      readonly status: 'ACTIVE';
      readonly userId: string;
      readonly profile: UserProfile;
      /** Consent scopes per mini-app id (read with consentOf: ids are keys of a plain object). */
      readonly consents: { readonly [miniAppId: string]: readonly ConsentScope[] };
      readonly registeredAt: string;
      readonly updatedAt: string;
    };

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; profile: UserProfile; now: string }
  | { type: 'ChangeUserProfile'; userId: string; changes: Partial<UserProfile>; now: string }
  /** Grants `granted` and withdraws `withdrawn` (scopes in neither keep their consent); a scope in both is refused. */
  | {
      type: 'RecordConsent';
      userId: string;
      miniAppId: string;
      granted: readonly ConsentScope[];
      withdrawn: readonly ConsentScope[];
      now: string;
    };

/** The consent scopes `miniAppId` holds from the user (none when it never asked). */
export function consentOf(state: UserState, miniAppId: string): readonly ConsentScope[] {
  if (state.status === 'NONE' || !Object.hasOwn(state.consents, miniAppId)) return [];
  return state.consents[miniAppId]!;
}

const invalid = (field: string, message: string) => identityError('INVALID_USER', message, { field });

/** A date of birth is a real calendar day, not after today (UTC). */
function assertDateOfBirth(dateOfBirth: string | null | undefined, now: string): void {
  if (dateOfBirth === null || dateOfBirth === undefined) return;
  if (dateOfBirth > now.slice(0, 10)) throw invalid('date_of_birth', 'date_of_birth must not be in the future');
}

function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser': {
      if (state.status !== 'NONE') throw identityError('USER_EXISTS', `user ${command.userId} already exists`);
      assertDateOfBirth(command.profile.dateOfBirth, command.now);
      return [
        { type: 'UserRegistered', data: { userId: command.userId, ...command.profile, registeredAt: command.now } },
      ];
    }
    case 'ChangeUserProfile': {
      if (state.status === 'NONE')
        throw identityError('USER_NOT_FOUND', `user ${command.userId} does not exist`, { userId: command.userId });
      assertDateOfBirth(command.changes.dateOfBirth, command.now);
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([key, value]) => value !== undefined && state.profile[key as keyof UserProfile] !== value,
        ),
      ) as Partial<UserProfile>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'UserProfileChanged', data: { userId: command.userId, changes, changedAt: command.now } }];
    }
    case 'RecordConsent': {
      if (state.status === 'NONE')
        throw identityError('USER_NOT_FOUND', `user ${command.userId} does not exist`, { userId: command.userId });
      const both = command.granted.find((s) => command.withdrawn.includes(s));
      if (both) throw invalid('scopes', `${both} cannot be granted and withdrawn at once`);
      const held = consentOf(state, command.miniAppId);
      const granted = canonicalScopes(command.granted.filter((s) => !held.includes(s)));
      const withdrawn = canonicalScopes(command.withdrawn.filter((s) => held.includes(s)));
      const { userId, miniAppId, now } = command;
      const events: UserEvent[] = [];
      if (granted.length)
        events.push({ type: 'ConsentGranted', data: { userId, miniAppId, scopes: granted, grantedAt: now } });
      if (withdrawn.length)
        events.push({ type: 'ConsentWithdrawn', data: { userId, miniAppId, scopes: withdrawn, withdrawnAt: now } });
      return events;
    }
  }
}

function withConsent(
  state: Extract<UserState, { status: 'ACTIVE' }>,
  event: ConsentGranted | ConsentWithdrawn,
): UserState {
  const held = consentOf(state, event.data.miniAppId);
  const scopes =
    event.type === 'ConsentGranted'
      ? canonicalScopes([...held, ...event.data.scopes])
      : held.filter((s) => !event.data.scopes.includes(s));
  const at = event.type === 'ConsentGranted' ? event.data.grantedAt : event.data.withdrawnAt;
  return { ...state, consents: { ...state.consents, [event.data.miniAppId]: scopes }, updatedAt: at };
}

function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, registeredAt, ...profile } = event.data;
      return { status: 'ACTIVE', userId, profile, consents: {}, registeredAt, updatedAt: registeredAt };
    }
    case 'UserProfileChanged':
      if (state.status === 'NONE') return state;
      return { ...state, profile: { ...state.profile, ...event.data.changes }, updatedAt: event.data.changedAt };
    case 'ConsentGranted':
    case 'ConsentWithdrawn':
      return state.status === 'NONE' ? state : withConsent(state, event);
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
