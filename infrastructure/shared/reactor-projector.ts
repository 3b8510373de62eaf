/**
 * Runs a reactor (application/shared/reactor.ts; docs/process-managers.md) on the projection runner: a projector with
 * no tables whose apply carries out the reactions. The runner gives it what projectors have (a durable consumer, a
 * lease, a checkpoint, lag metrics, redelivery with backoff, dead letters). Its checkpoint moves in the runner's
 * transaction after the reactions completed; a crash in between delivers the event again, which the reactor's
 * idempotence absorbs. Its version never changes: a reactor is never "rebuilt".
 */
import type { Reactor } from '../../application/shared/reactor.js';
import type { Projector } from '../../projections/shared/projector.js';

export function reactorProjector(reactor: Reactor): Projector {
  return {
    name: `reactor-${reactor.name}`,
    version: 1,
    tables: [],
    eventTypes: reactor.eventTypes,
    decoder: reactor.decoder,
    async createTables() {},
    async apply(_trx, events) {
      for (const event of events) await reactor.react(event);
    },
  };
}
