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
  ack(): Promise<void>;
  /** Redeliver later. */
  nak(delayMs?: number): Promise<void>;
  /** Never redeliver (poison message; the caller dead-letters it first). */
  term(): Promise<void>;
}

export interface ConsumerOptions {
  /** Durable consumer name; its progress survives restarts. */
  durableName: string;
  /** Where a brand new consumer starts: the consumer's own last applied position (null: the beginning). */
  startAfter: string | null;
  /** Most messages handed over in one call. */
  batchSize?: number;
}

export interface BusConsumer {
  stop(): Promise<void>;
}

export interface EventBus {
  /** Publishes events in the order given; an event already published (same id) is not published twice. */
  publish(events: RecordedEvent[]): Promise<void>;
  /** Position of the last event this bus holds, so a restarted relay resumes after it. */
  lastPublishedPosition(): Promise<string | null>;
  /** Delivers batches in global order; a batch is redelivered until each message is acked or termed. */
  consume(options: ConsumerOptions, handler: (messages: BusMessage[]) => Promise<void>): Promise<BusConsumer>;
  close(): Promise<void>;
}
