/**
 * The host app's `getAuthCode`, as this sandbox stands in for it (docs/identity.md, "The sandbox"): a one-time code
 * for a user, a mini-app and scopes, `auth` without consent and `profile`/`phone`/`email` only as far as the user
 * consented to them for that mini-app. The raw code is returned once; its stream is named by its sha256.
 */
import { consentOf, identityError, type Scope } from '../../domain/identity/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import { identityAggregates } from './aggregates.js';
import { after, type TokenLifetimes } from './lifetimes.js';
import type { MiniAppRegistry } from './mini-apps.js';
import { randomSecret, secretHash } from './secrets.js';
import type { UserDirectory } from './users.js';

export interface IssuedAuthCode {
  code: string;
  userId: string;
  miniAppId: string;
  scopes: Scope[];
  expiresAt: string;
  expiresIn: number;
}

export class AuthCodeIssuer {
  private readonly codes;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      users: UserDirectory;
      miniApps: MiniAppRegistry;
      lifetimes: TokenLifetimes;
      /** Whether the sandbox (this stand-in for the host app) is on (IDENTITY_SANDBOX). */
      sandbox: boolean;
    },
  ) {
    this.codes = identityAggregates(deps).authCode;
  }

  get enabled(): boolean {
    return this.deps.sandbox;
  }

  /** Refuses while the sandbox is off: whoever reaches it can log in as any user. */
  assertEnabled(): void {
    if (!this.deps.sandbox)
      throw identityError('SANDBOX_DISABLED', 'the identity sandbox is off (IDENTITY_SANDBOX=false)');
  }

  async issue(
    context: CommandContext,
    request: { userId: string; miniAppId: string; scopes: readonly Scope[] },
  ): Promise<IssuedAuthCode> {
    this.assertEnabled();
    const { userId, miniAppId, scopes } = request;
    const user = await this.deps.users.state(userId);
    if (user.status === 'NONE') throw identityError('USER_NOT_FOUND', `user ${userId} does not exist`, { userId });
    await this.deps.miniApps.get(miniAppId);
    const code = randomSecret();
    const codeHash = secretHash(code);
    const seconds = this.deps.lifetimes.authCodeSeconds;
    const { events } = await this.codes.handle(context, codeHash, (now) => ({
      type: 'IssueAuthCode' as const,
      codeHash,
      userId,
      miniAppId,
      scopes,
      consented: consentOf(user, miniAppId),
      expiresAt: after(new Date(now), seconds),
      now,
    }));
    const issued = events[0]!;
    if (issued.type !== 'AuthCodeIssued') throw new Error('issuing a code appended no AuthCodeIssued');
    return {
      code,
      userId,
      miniAppId,
      scopes: issued.data.scopes,
      expiresAt: issued.data.expiresAt,
      expiresIn: seconds,
    };
  }
}
