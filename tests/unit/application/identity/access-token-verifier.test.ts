/**
 * An access token's check reads the same whatever the grant's history (docs/identity.md, "Refresh tokens"): the
 * identity context on an in-memory store, a grant refreshed many times, and the events each check reads counted.
 */
import { expect } from 'chai';
import { fixedClock } from '../../../../application/shared/clock.js';
import { newCommandContext } from '../../../../application/shared/command-context.js';
import type { RecordedEvent } from '../../../../application/shared/event-store.js';
import { loadConfig } from '../../../../container.js';
import { buildIdentity, newSigningKeyJwk, readSigningKeys } from '../../../../infrastructure/identity/index.js';
import { InMemoryEventStore } from '../../../../infrastructure/shared/eventstore/in-memory-event-store.js';

/** Counts the events the store hands out. */
class CountingStore extends InMemoryEventStore {
  eventsRead = 0;
  override async readStream(streamName: string, options?: { fromRevision?: number; limit?: number }) {
    const events = await super.readStream(streamName, options);
    this.eventsRead += events.length;
    return events;
  }
  override async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    const event = await super.readLastEvent(streamName);
    if (event) this.eventsRead += 1;
    return event;
  }
}

describe('access token check: constant work however often its grant was refreshed', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  const context = () => newCommandContext({ actor: { operator: 'test' } });

  async function grantRefreshed(times: number) {
    const store = new CountingStore({ clock });
    const identity = buildIdentity({
      config: loadConfig({ NODE_ENV: 'test' }),
      secrets: { IDENTITY_SIGNING_KEYS: readSigningKeys(JSON.stringify([newSigningKeyJwk()])) },
      store,
      clock,
    }).services;
    await identity.users.register(context(), 'u1', {
      name: 'User One',
      dateOfBirth: null,
      gender: null,
      phoneNumber: null,
      email: null,
      avatarUrl: null,
    });
    const { clientSecret } = await identity.miniApps.register(context(), {
      miniAppId: 'app',
      name: 'App',
      redirectUris: [],
    });
    const client = { miniAppId: 'app', secret: clientSecret! };
    const { code } = await identity.authCodes.issue(context(), { userId: 'u1', miniAppId: 'app', scopes: ['auth'] });
    let tokens = await identity.tokens.exchangeCode(context(), client, code);
    const first = tokens.accessToken;
    for (let i = 0; i < times; i++)
      tokens = await identity.tokens.refresh(context(), client, tokens.refreshToken, null);
    return { store, identity, client, first, tokens };
  }

  it('given grants refreshed 0, 10 and 300 times, when an access token is checked, then it reads the same two events', async () => {
    const counts: number[] = [];
    for (const times of [0, 10, 300]) {
      const { store, identity, first } = await grantRefreshed(times);
      store.eventsRead = 0;
      const check = await identity.accessTokens.verify(first);
      expect(check.ok).to.equal(true);
      counts.push(store.eventsRead);
    }
    expect(counts).to.deep.equal([2, 2, 2]);
  });

  it('given a grant refreshed 60 times then revoked by reuse, when any of its access tokens is checked, then TOKEN_REVOKED', async () => {
    const { store, identity, client, first, tokens } = await grantRefreshed(60);
    const reused = await identity.tokens.refresh(context(), client, tokens.refreshToken, null);
    // The previous refresh token, rotated away just now, comes back: the grant is revoked.
    await identity.tokens.refresh(context(), client, tokens.refreshToken, null).then(
      () => expect.fail('a reused refresh token was accepted'),
      (err: { code?: string }) => expect(err.code).to.equal('REFRESH_TOKEN_REUSED'),
    );
    for (const token of [first, tokens.accessToken, reused.accessToken]) {
      store.eventsRead = 0;
      expect(await identity.accessTokens.verify(token)).to.deep.equal({ ok: false, reason: 'TOKEN_REVOKED' });
      expect(store.eventsRead).to.equal(2);
    }
  });
});
