import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { BusConsumer, BusMessage, ConsumerOptions, EventBus } from '../../../application/shared/event-bus.js';
import type { EventStore, RecordedEvent } from '../../../application/shared/event-store.js';
import type { Logger } from '../logger.js';
import { pause } from '../pause.js';

export interface InProcessEventBusOptions {
  /** Row of relay_checkpoints holding what this bus was given (default 'in-process'). */
  name?: string;
  /**
   * Most recent events kept in memory; consumers further behind read the store (default 50 000: a bulk import
   * of 100 000 pools leaves the slowest projector tens of thousands of events behind the relay, and each
   * consumer reading them again from the store took a fifth of the projection throughput; some 100 MB at most).
   */
  bufferSize?: number;
  /** When a message the handler left unsettled, or threw on, comes again (default 1 s). */
  redeliveryDelayMs?: number;
  /** How often a consumer with nothing to do looks at the store again (default 500 ms). */
  pollIntervalMs?: number;
  logger?: Pick<Logger, 'error'>;
}

interface Delivery {
  event: RecordedEvent;
  deliveryCount: number;
  /** performance.now() from which it may be delivered. */
  dueAt: number;
}

type Settlement = 'done' | { nakDelayMs: number } | undefined;

/**
 * The bus of a single process without a broker (NATS_URL unset), fed by the
 * same relay as NATS. Events live in a bounded memory buffer; a consumer that
 * is behind what the buffer holds (after a restart, or a slow one) reads the
 * event store instead, so consumption is durable as long as each consumer
 * passes its own checkpoint as `startAfter`. The position of the last
 * published event is kept in relay_checkpoints so a restarted relay does not
 * republish.
 */
export class InProcessEventBus implements EventBus {
  private readonly name: string;
  private readonly bufferSize: number;
  private readonly buffer: RecordedEvent[] = [];
  /** Every event published after this position is in the buffer; undefined before the first publish. */
  private complete: { after: string | null } | undefined;
  private published: string | null | undefined;
  private readonly waiting = new Set<() => void>();
  private readonly consumers = new Set<InProcessConsumer>();

  constructor(
    private readonly store: EventStore,
    private readonly knex: Knex,
    private readonly options: InProcessEventBusOptions = {},
  ) {
    this.name = options.name ?? 'in-process';
    this.bufferSize = options.bufferSize ?? 50_000;
  }

  async publish(events: RecordedEvent[]): Promise<void> {
    const last = await this.lastPublishedPosition();
    const fresh = last === null ? events : events.filter((e) => e.position > last);
    if (fresh.length === 0) return;
    const position = fresh[fresh.length - 1]!.position;
    await this.knex.raw(
      `INSERT INTO relay_checkpoints (name, position, updated_at) VALUES (?, ?, clock_timestamp())
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = EXCLUDED.updated_at
       WHERE relay_checkpoints.position < EXCLUDED.position`,
      [this.name, position],
    );
    this.complete ??= { after: last };
    this.buffer.push(...fresh);
    if (this.buffer.length > this.bufferSize) {
      const dropped = this.buffer.splice(0, this.buffer.length - this.bufferSize);
      this.complete = { after: dropped[dropped.length - 1]!.position };
    }
    this.published = position;
    for (const wake of [...this.waiting]) wake();
  }

  async lastPublishedPosition(): Promise<string | null> {
    if (this.published === undefined) {
      const row = await this.knex('relay_checkpoints')
        .where({ name: this.name })
        .first<{ position: string } | undefined>('position');
      this.published = row?.position ?? null;
    }
    return this.published;
  }

  async consume(options: ConsumerOptions, handler: (messages: BusMessage[]) => Promise<void>): Promise<BusConsumer> {
    const consumer = new InProcessConsumer(this, this.store, options, handler, {
      redeliveryDelayMs: this.options.redeliveryDelayMs ?? 1000,
      pollIntervalMs: this.options.pollIntervalMs ?? 500,
      logger: this.options.logger,
      onStop: () => this.consumers.delete(consumer),
    });
    this.consumers.add(consumer);
    return consumer;
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.stop()));
  }

  /** Buffered events after `cursor`, or undefined when the buffer cannot tell (the consumer reads the store). */
  eventsAfter(cursor: string | null, limit: number): RecordedEvent[] | undefined {
    const after = this.complete?.after;
    if (after === undefined) return undefined;
    if (after !== null && (cursor === null || cursor < after)) return undefined;
    let low = 0;
    let high = this.buffer.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cursor !== null && this.buffer[mid]!.position <= cursor) low = mid + 1;
      else high = mid;
    }
    return this.buffer.slice(low, low + limit);
  }

  /** Resolves on the next publish, after `ms`, or when `signal` aborts. */
  async nextPublish(ms: number, signal: AbortSignal): Promise<void> {
    const local = new AbortController();
    const wake = () => local.abort();
    const onAbort = () => local.abort();
    this.waiting.add(wake);
    signal.addEventListener('abort', onAbort);
    try {
      await pause(ms, local.signal);
    } finally {
      this.waiting.delete(wake);
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * One durable consumer: delivers batches in global order. Messages that come
 * back (nak'ed, or left unsettled) are redelivered before anything newer, so
 * order holds even for a handler that naks.
 */
class InProcessConsumer implements BusConsumer {
  private cursor: string | null;
  private redeliveries: Delivery[] = [];
  private readonly abort = new AbortController();
  private readonly loop: Promise<void>;
  private readonly batchSize: number;

  constructor(
    private readonly bus: InProcessEventBus,
    private readonly store: EventStore,
    options: ConsumerOptions,
    private readonly handler: (messages: BusMessage[]) => Promise<void>,
    private readonly settings: {
      redeliveryDelayMs: number;
      pollIntervalMs: number;
      logger: Pick<Logger, 'error'> | undefined;
      onStop: () => void;
    },
  ) {
    this.cursor = options.startAfter;
    this.batchSize = options.batchSize ?? 100;
    this.loop = this.run(this.abort.signal);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    this.settings.onStop();
  }

  async pending(): Promise<number> {
    return this.redeliveries.length + (this.bus.eventsAfter(this.cursor, Number.MAX_SAFE_INTEGER)?.length ?? 0);
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const batch = await this.nextBatch(signal);
        if (batch.length > 0) await this.deliver(batch);
      } catch (error) {
        this.settings.logger?.error('in-process consumer failed to read the store; retrying', { error });
        await pause(this.settings.redeliveryDelayMs, signal);
      }
    }
  }

  private async nextBatch(signal: AbortSignal): Promise<Delivery[]> {
    if (this.redeliveries.length > 0) {
      const now = performance.now();
      const wait = this.redeliveries[0]!.dueAt - now;
      if (wait > 0) {
        await pause(wait, signal);
        return [];
      }
      let due = 0;
      while (due < this.redeliveries.length && due < this.batchSize && this.redeliveries[due]!.dueAt <= now) due++;
      return this.redeliveries.splice(0, due);
    }
    const events =
      this.bus.eventsAfter(this.cursor, this.batchSize) ?? (await this.store.readAll(this.cursor, this.batchSize));
    if (events.length === 0) {
      await this.bus.nextPublish(this.settings.pollIntervalMs, signal);
      return [];
    }
    this.cursor = events[events.length - 1]!.position;
    return events.map((event) => ({ event, deliveryCount: 1, dueAt: 0 }));
  }

  private async deliver(batch: Delivery[]): Promise<void> {
    const settlements: Settlement[] = batch.map(() => undefined);
    const messages: BusMessage[] = batch.map((d, i) => new InProcessMessage(d.event, d.deliveryCount, settlements, i));
    try {
      await this.handler(messages);
    } catch (error) {
      this.settings.logger?.error('in-process consumer handler failed; redelivering', { error });
    }
    const now = performance.now();
    batch.forEach((d, i) => {
      const s = settlements[i];
      if (s === 'done') return;
      const delay = s === undefined ? this.settings.redeliveryDelayMs : s.nakDelayMs;
      this.redeliveries.push({ event: d.event, deliveryCount: d.deliveryCount + 1, dueAt: now + delay });
    });
    this.redeliveries.sort((a, b) =>
      a.event.position < b.event.position ? -1 : a.event.position > b.event.position ? 1 : 0,
    );
  }
}

/** A delivered event; settling it records the first settlement in its slot of the batch's. */
class InProcessMessage implements BusMessage {
  constructor(
    readonly event: RecordedEvent,
    readonly deliveryCount: number,
    private readonly settlements: Settlement[],
    private readonly index: number,
  ) {}

  async ack(): Promise<void> {
    this.settlements[this.index] ??= 'done';
  }

  async term(): Promise<void> {
    this.settlements[this.index] ??= 'done';
  }

  async nak(delayMs?: number): Promise<void> {
    this.settlements[this.index] ??= { nakDelayMs: delayMs ?? 0 };
  }
}
