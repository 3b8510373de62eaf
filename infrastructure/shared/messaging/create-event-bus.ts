import type { Knex } from 'knex';
import type { EventBus } from '../../../application/shared/event-bus.js';
import type { EventStore } from '../../../application/shared/event-store.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { InProcessEventBus } from './in-process-event-bus.js';
import { NatsEventBus } from './nats-event-bus.js';

/** NATS JetStream when NATS_URL is set, else the in-process bus over the event store. */
export async function createEventBus(
  config: Pick<
    Config,
    'NATS_URL' | 'NATS_STREAM' | 'NATS_SUBJECT_PREFIX' | 'NATS_FETCH_LINGER_MS' | 'NATS_FILTER_BY_CONTEXT'
  >,
  deps: {
    store: EventStore;
    knex: Knex;
    logger?: Pick<Logger, 'error' | 'warn'>;
    /** The bounded context of an event type (NatsEventBusOptions.contextOf). */
    contextOf?: (type: string) => string | undefined;
  },
): Promise<EventBus> {
  if (config.NATS_URL) {
    return NatsEventBus.connect(config.NATS_URL, {
      stream: config.NATS_STREAM,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      fetchLingerMs: config.NATS_FETCH_LINGER_MS,
      contextOf: deps.contextOf,
      filterByContext: config.NATS_FILTER_BY_CONTEXT,
      logger: deps.logger,
    });
  }
  return new InProcessEventBus(deps.store, deps.knex, { logger: deps.logger });
}
