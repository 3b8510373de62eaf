import type { Knex } from 'knex';
import type { EventStore } from '../../../application/shared/event-store.js';
import { EventStoreDbEventStore } from './esdb-event-store.js';
import type { SubscriptionLogger } from './subscription-loop.js';
import { PostgresEventStore } from './postgres-event-store.js';

export interface CreateEventStoreOptions {
  /** The service's database: the PostgreSQL event store lives there (run `migrate(knex)` first). */
  knex: Knex;
  /** EventStoreDB connection string (config EVENTSTORE_URL); unset: the PostgreSQL event store. */
  eventStoreUrl?: string;
  logger?: SubscriptionLogger;
}

/** The event store adapter the configuration asks for. */
export function createEventStore({ knex, eventStoreUrl, logger }: CreateEventStoreOptions): EventStore {
  return eventStoreUrl
    ? new EventStoreDbEventStore(eventStoreUrl, { logger })
    : new PostgresEventStore(knex, { logger });
}
