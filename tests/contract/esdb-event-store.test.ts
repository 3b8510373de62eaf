import { expect } from 'chai';
import knexFactory from 'knex';
import { createEventStore } from '../../infrastructure/shared/eventstore/create-event-store.js';
import { EventStoreDbEventStore } from '../../infrastructure/shared/eventstore/esdb-event-store.js';
import { eventStoreContract } from './event-store.contract.js';

const url = process.env.EVENTSTORE_URL;

if (url) {
  eventStoreContract('EventStoreDbEventStore', async () => ({
    store: new EventStoreDbEventStore(url),
    atomicAppendMany: false,
    dispose: async () => undefined,
  }));
} else {
  describe('EventStoreDbEventStore (event store contract)', () => {
    it('runs against the EventStoreDB at EVENTSTORE_URL', function () {
      console.warn('NOTICE: EVENTSTORE_URL not set; EventStoreDB contract suite skipped');
      this.skip();
    });
  });
}

describe('createEventStore', () => {
  it('picks EventStoreDB when a connection string is given', async () => {
    const knex = knexFactory({ client: 'pg' });
    const store = createEventStore({ knex, eventStoreUrl: 'esdb://127.0.0.1:2113?tls=false' });

    expect(store).to.be.instanceOf(EventStoreDbEventStore);
    await store.close();
    await knex.destroy();
  });
});
