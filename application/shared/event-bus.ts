import type { RecordedEvent } from './event-store.js';

/**
 * The fan-out port. The relay publishes the global log to it in order; durable
 * consumers (projectors, the IPN dispatcher, process managers) read from it.
 * Adapters: NATS JetStream (NATS_URL set) and an in-process bus.
 */
export interface BusMessage {
  readonly event: RecordedEvent;
  /** How many times this message was delivered (1 on the first delivery). */
  readonly deliveryCount: number;
  /**
   * Its sequence in the bus's stream, where the bus has one (JetStream): consecutive events have consecutive
   * sequences, so a consumer can tell that it was not given some (infrastructure/shared/projection-holes.ts).
   */
  readonly sequence?: number;
  /**
   * Where the bus gives the consumer one context's events only: the position of the event of that context published
   * before this one, when the publisher knows it (undefined otherwise). The consumer was given every event of its feed
   * up to this one when its last one is at or after it (projection-holes.ts).
   */
  readonly follows?: string;
  ack(): Promise<void>;
  /**
   * Redeliver later. To keep global order, nak every later message of the
   * batch too, without a delay: JetStream lets newer messages overtake a
   * message nak'ed with a delay (the in-process bus does not).
   */
  nak(delayMs?: number): Promise<void>;
  /** Never redeliver (poison message; the caller dead-letters it first). */
  term(): Promise<void>;
}

export interface ConsumerOptions {
  /** Durable consumer name; its progress survives restarts. */
  durableName: string;
  /**
   * The consumer's own last applied position, its checkpoint (null: nothing yet). The in-process bus starts right
   * after it. JetStream starts its consumer no earlier than right after the stream message at that position, and
   * otherwise where its broker-side state says (docs/projections.md, "Where a consumer starts"). Either may deliver
   * again what the consumer already applied: the handler skips it.
   */
  startAfter: string | null;
  /**
   * The checkpoint as it stands now, asked each time the bus creates the consumer again (JetStream, after an error);
   * default: `startAfter`. It must never be ahead of what the consumer applied.
   */
  checkpoint?: () => string | null;
  /** Most messages handed over in one call. */
  batchSize?: number;
  /**
   * The event types the consumer acts on. A bus that files events by bounded context may then give it only the events
   * of their context, when they all belong to one (docs/projections.md, "Buses"); the others it passes over anyway.
   */
  eventTypes?: ReadonlySet<string>;
}

export interface BusConsumer {
  /** Stops after the batch in hand has been handled. */
  stop(): Promise<void>;
  /** Messages this consumer has yet to settle, as far as the bus knows (its lag in events). */
  pending(): Promise<number>;
  /**
   * Places the consumer right after its checkpoint (ConsumerOptions.checkpoint), so that it is not given the messages
   * its checkpoint has passed: called from the consumer's own handler after it moved the checkpoint far past what the
   * bus would deliver next (it read the event store instead). A bus without it delivers them, and the handler skips them.
   */
  reposition?(): Promise<void>;
}

export interface EventBus {
  /** Publishes events in the order given; an event already published (same id) is not published twice. */
  publish(events: RecordedEvent[]): Promise<void>;
  /** Position of the last event this bus holds, so a restarted relay resumes after it. */
  lastPublishedPosition(): Promise<string | null>;
  /**
   * The last event this bus holds, where it keeps them apart from the store's database (JetStream): the relay checks
   * that the event log still has it, which a database restored from an older backup does not.
   */
  lastPublished?(): Promise<RecordedEvent | null>;
  /**
   * Delivers batches in global order, one batch at a time (the next after the
   * handler's promise settles). A message the handler neither acked nor termed
   * (or all unsettled ones, when it throws) is redelivered, before anything newer.
   */
  consume(options: ConsumerOptions, handler: (messages: BusMessage[]) => Promise<void>): Promise<BusConsumer>;
  /** Whether the broker answers now, for readiness (a bus without one: always). */
  reachable?(): Promise<boolean>;
  close(): Promise<void>;
}
