/**
 * Process managers (docs/process-managers.md): a reactor hears events of other aggregates and carries out what
 * follows from them (commands through the command handler, never rows). The projection runner drives it like a
 * projector (infrastructure/shared/reactor-projector.ts): a durable consumer, one active holder per reactor (its
 * lease), its checkpoint, redelivery with backoff and a dead letter for a poison event.
 */
import type { DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';
import type { RecordedEvent } from './event-store.js';

/** An event as a reactor receives it: as recorded, its type and data decoded by the reactor's decoder. */
export type ReactedEvent<E extends DomainEvent = DomainEvent> = Omit<RecordedEvent, 'type' | 'data'> & E;

export interface Reactor<E extends DomainEvent = DomainEvent> {
  /** Unique, stable: names its durable consumer and its checkpoint. */
  readonly name: string;
  /** The event types it hears; others only move its checkpoint. */
  readonly eventTypes: ReadonlySet<string>;
  /** The decoder of the context whose events it hears (it must know every type of `eventTypes`). */
  readonly decoder: EventDecoder<E>;
  /**
   * Carries out what `event` implies. Delivered at least once, also again from the start of the log: it must be
   * idempotent (command ids derived from `event.id`, so a second delivery appends nothing). A throw retries it later;
   * after the runner's maximum it is dead-lettered.
   */
  react(event: ReactedEvent<E>): Promise<void>;
}
