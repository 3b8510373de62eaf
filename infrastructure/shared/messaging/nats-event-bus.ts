import { connect, headers, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  PubHeaders,
  jetstream,
  jetstreamManager,
  type Consumer,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { BusConsumer, BusMessage, ConsumerOptions, EventBus } from '../../../application/shared/event-bus.js';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import type { Logger } from '../logger.js';
import { pause } from '../pause.js';

export interface NatsEventBusOptions {
  /** JetStream stream name (NATS_STREAM). */
  stream: string;
  /** Subjects are `<prefix>.<category>.<type>`; the stream captures `<prefix>.>` (NATS_SUBJECT_PREFIX). */
  subjectPrefix: string;
  /** How long the server waits for an ack before redelivering (default 60 s). */
  ackWaitMs?: number;
  /** Stream dedupe window for Nats-Msg-Id (default 2 min, the server's). */
  duplicateWindowMs?: number;
  /** How long one fetch waits for a message when there is none (default 30 s; at least 1 s). */
  fetchExpiresMs?: number;
  /** Pause after a handler threw, before its messages come again (default 1 s). */
  retryDelayMs?: number;
  logger?: Pick<Logger, 'error' | 'warn'>;
}

/** How many parsed events a bus keeps for its other consumers (as many as the in-process bus buffers): projectors that far apart still share one parse. */
const parsedKept = 50_000;

/** Headers every published message carries besides Nats-Msg-Id (= event id). */
export const positionHeader = 'Event-Position';
export const typeHeader = 'Event-Type';

const token = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_') || '_';

/** `<prefix>.<category>.<type>`, the category being the stream name before its first '-'. */
export function subjectFor(prefix: string, event: Pick<RecordedEvent, 'streamName' | 'type'>): string {
  const dash = event.streamName.indexOf('-');
  const category = dash < 0 ? event.streamName : event.streamName.slice(0, dash);
  return `${prefix}.${token(category)}.${token(event.type)}`;
}

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * The event bus on NATS JetStream (nats-server 2.9 or later). Each event is
 * one message, Nats-Msg-Id = event id, its global position in a header.
 *
 * Publishing is pipelined but guarded: every message expects the stream's
 * last sequence to be the one before it, so when one publish fails none after
 * it is stored, and the stream stays the global log's prefix in order. That is
 * what lets the relay resume after the stream's last message. It also fences
 * a relay that lost its lease while another kept publishing.
 */
export class NatsEventBus implements EventBus {
  private readonly js: JetStreamClient;
  private readonly consumers = new Set<NatsConsumer>();
  /** The events parsed last, each at its stream sequence modulo parsedKept, with that sequence (see parse). */
  private readonly parsedSeqs = new Float64Array(parsedKept);
  private readonly parsed: (RecordedEvent | undefined)[] = new Array(parsedKept);
  /** Sequence of the stream's last message as this bus last saw it; the next publish expects it. */
  private expectedLastSeq: number | undefined;

  /**
   * Connects to `servers` and creates or updates the stream. The connection reconnects for as long as the process
   * lives (the client's default gives up after 10 attempts 2 s apart, and a closed connection never comes back, so an
   * outage of 20 s stopped the relay and the projectors for good): docs/projections.md, "Buses".
   */
  static async connect(servers: string, options: NatsEventBusOptions): Promise<NatsEventBus> {
    const nc = await connect({
      servers,
      name: `event-bus-${options.stream}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
    try {
      const bus = new NatsEventBus(nc, await jetstreamManager(nc), options, true);
      await bus.ensureStream();
      return bus;
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly options: NatsEventBusOptions,
    private readonly ownsConnection = false,
  ) {
    this.js = jetstream(nc);
  }

  /** Creates the stream, or sets its subjects (only `<prefix>.>`: consumers rely on it) and dedupe window. */
  async ensureStream(): Promise<void> {
    const subject = `${this.options.subjectPrefix}.>`;
    const duplicateWindow = nanos(this.options.duplicateWindowMs ?? 120_000);
    try {
      const { config } = await this.jsm.streams.info(this.options.stream);
      if (
        config.subjects?.length !== 1 ||
        config.subjects[0] !== subject ||
        config.duplicate_window !== duplicateWindow
      ) {
        await this.jsm.streams.update(this.options.stream, { subjects: [subject], duplicate_window: duplicateWindow });
      }
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
      await this.jsm.streams.add({ name: this.options.stream, subjects: [subject], duplicate_window: duplicateWindow });
    }
  }

  /**
   * Sends all but the last event as plain NATS messages, and the last as a
   * JetStream publish whose ack tells how the whole run went: the server
   * handles one connection's messages in order, and each expects the stream's
   * last sequence to be the one before it, so the last one is stored at
   * base + n exactly when every one before it was. Anything else (a duplicate,
   * a refused expectation, a timeout) is settled by reading the stream's last
   * message: publishing goes on after it when it is one of these events, and
   * fails otherwise (the stream is behind them, or another relay moved it on).
   * One acknowledged request per run instead of one per event: the per-request
   * bookkeeping of the client was most of the relay's cost.
   */
  async publish(events: RecordedEvent[]): Promise<void> {
    let remaining = events;
    while (remaining.length > 0) {
      const base = this.expectedLastSeq ?? (await this.streamInfo()).state.last_seq;
      this.expectedLastSeq = undefined;
      const last = remaining.length - 1;
      for (let i = 0; i < last; i++)
        this.nc.publish(this.subjectOf(remaining[i]!), JSON.stringify(remaining[i]), {
          headers: this.headersOf(remaining[i]!, base + i),
        });
      const ack = await this.js
        .publish(this.subjectOf(remaining[last]!), JSON.stringify(remaining[last]), {
          headers: this.headersOf(remaining[last]!, base + last),
        })
        .catch(() => undefined);
      if (ack && !ack.duplicate && ack.seq === base + remaining.length) {
        this.expectedLastSeq = ack.seq;
        return;
      }
      const stored = await this.lastPublishedPosition();
      const at = remaining.findIndex((e) => e.position === stored);
      if (at < 0)
        throw new Error(
          `stream ${this.options.stream}: publishing stopped before these events; the stream's last position is ${stored}`,
        );
      remaining = remaining.slice(at + 1);
    }
  }

  /**
   * A stream that is gone (NATS restarted with an empty store) is created again, empty: the relay then publishes the
   * whole log again, as a restart would, and the projectors skip what they had applied (docs/projections.md, "Buses").
   */
  async lastPublishedPosition(): Promise<string | null> {
    const { state } = await this.streamInfo();
    this.expectedLastSeq = state.last_seq;
    if (state.last_seq === 0) return null;
    const message = await this.jsm.streams.getMessage(this.options.stream, { seq: state.last_seq });
    const position = message?.header.get(positionHeader);
    if (!position)
      throw new Error(
        `stream ${this.options.stream}: last message ${state.last_seq} is gone or has no ${positionHeader}; cannot tell where the relay stopped`,
      );
    return position;
  }

  /** The stream's info; a stream that is gone is created again first. */
  private async streamInfo() {
    try {
      return await this.jsm.streams.info(this.options.stream);
    } catch (error) {
      if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
      this.options.logger?.warn('the event stream is gone; creating it again (the relay republishes the log)', {
        stream: this.options.stream,
      });
      await this.ensureStream();
      return this.jsm.streams.info(this.options.stream);
    }
  }

  async consume(options: ConsumerOptions, handler: (messages: BusMessage[]) => Promise<void>): Promise<BusConsumer> {
    const consumer = new NatsConsumer(this.nc, this.jsm, this.js, this.options.stream, options, handler, {
      ackWaitMs: this.options.ackWaitMs ?? 60_000,
      fetchExpiresMs: Math.max(1000, this.options.fetchExpiresMs ?? 30_000),
      retryDelayMs: this.options.retryDelayMs ?? 1000,
      logger: this.options.logger,
      onStop: () => this.consumers.delete(consumer),
      parse: (m) => this.parse(m),
      ensureStream: () => this.ensureStream(),
    });
    await consumer.start();
    this.consumers.add(consumer);
    return consumer;
  }

  /** Whether the server answers a round trip within a second (false while the connection is down or reconnecting). */
  async reachable(): Promise<boolean> {
    if (this.nc.isClosed()) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 1000)));
    try {
      return await Promise.race([
        this.nc.flush().then(
          () => true,
          () => false,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.stop()));
    if (this.ownsConnection && !this.nc.isClosed()) await this.nc.close();
  }

  /**
   * The event a message holds. The consumers of one process (the projectors)
   * get the same messages at about the same time, so the events parsed last
   * are kept by stream sequence and handed to the next consumer as they are:
   * one parse per process instead of one per consumer. Consumers treat events
   * as read-only, as with the in-process bus.
   */
  private parse(m: JsMsg): RecordedEvent {
    // A slot per sequence modulo the size, so that the last parsedKept sequences each have their own. (A Map with its
    // oldest entry deleted per insert cost more than the parsing it saved: finding the oldest walks the deleted ones.)
    const seq = m.seq;
    const slot = seq % parsedKept;
    if (this.parsedSeqs[slot] === seq) return this.parsed[slot]!;
    const event = m.json<RecordedEvent>();
    this.parsedSeqs[slot] = seq;
    this.parsed[slot] = event;
    return event;
  }

  private subjectOf(event: RecordedEvent): string {
    return subjectFor(this.options.subjectPrefix, event);
  }

  private headersOf(event: RecordedEvent, expectedLastSeq: number): MsgHdrs {
    const h = headers();
    h.set(PubHeaders.MsgIdHdr, event.id);
    h.set(PubHeaders.ExpectedLastSeqHdr, String(expectedLastSeq));
    h.set(positionHeader, event.position);
    h.set(typeHeader, event.type);
    return h;
  }
}

/**
 * A durable pull consumer fetching one batch at a time, sized to what is
 * waiting, so nothing is fetched ahead of a message the handler naks: the
 * nak'ed messages (naked without delay, in order) come first in the next fetch.
 *
 * Messages left unacked by a process that died, or by a lost connection, would
 * come back only after ack_wait, behind newer ones, and the projector would
 * skip them as already passed. So on start and after any error, a consumer
 * with unacked messages is recreated at the first unacked stream sequence
 * (ack floor + 1); what comes again after that is skipped by the handler.
 */
class NatsConsumer implements BusConsumer {
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private fetching: ConsumerMessages | undefined;
  private consumer: Consumer | undefined;
  private readonly batchSize: number;

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly options: ConsumerOptions,
    private readonly handler: (messages: BusMessage[]) => Promise<void>,
    private readonly settings: {
      ackWaitMs: number;
      fetchExpiresMs: number;
      retryDelayMs: number;
      logger: Pick<Logger, 'error' | 'warn'> | undefined;
      onStop: () => void;
      parse: (m: JsMsg) => RecordedEvent;
      /** Creates the stream when it is gone, so that the consumer can be created on it again. */
      ensureStream: () => Promise<void>;
    },
  ) {
    this.batchSize = options.batchSize ?? 100;
  }

  async start(): Promise<void> {
    await this.recover();
    this.loop = this.run(this.abort.signal);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.fetching?.stop();
    await this.loop;
    this.settings.onStop();
  }

  async pending(): Promise<number> {
    const info = await this.jsm.consumers.info(this.stream, this.options.durableName);
    return info.num_pending + info.num_ack_pending;
  }

  /** Creates the durable consumer, or recreates it at its ack floor when it has unacked messages. */
  private async recover(): Promise<void> {
    const config = {
      durable_name: this.options.durableName,
      ack_policy: AckPolicy.Explicit,
      max_deliver: -1,
      ack_wait: nanos(this.settings.ackWaitMs),
      max_ack_pending: Math.max(1000, this.batchSize * 2),
    };
    let existing: ConsumerInfo | undefined;
    try {
      existing = await this.jsm.consumers.info(this.stream, this.options.durableName);
    } catch (error) {
      if (isApiError(error, JetStreamApiCodes.StreamNotFound)) {
        // The stream was lost (NATS restarted empty): recreate it and the consumer, which gets the republished log
        // from the start; the handler skips what it had applied.
        this.settings.logger?.warn('the event stream is gone; creating it and the consumer again', {
          consumer: this.options.durableName,
        });
        await this.settings.ensureStream();
      } else if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    }
    if (!existing) {
      await this.jsm.consumers.add(this.stream, { ...config, deliver_policy: DeliverPolicy.All });
    } else if (existing.num_ack_pending > 0) {
      const from = existing.ack_floor.stream_seq + 1;
      this.settings.logger?.warn('NATS consumer has unacked messages; recreating it at its ack floor to keep order', {
        consumer: this.options.durableName,
        from,
      });
      await this.jsm.consumers.delete(this.stream, this.options.durableName);
      await this.jsm.consumers.add(this.stream, {
        ...config,
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: from,
      });
    } else if (
      existing.config.ack_wait !== config.ack_wait ||
      existing.config.max_ack_pending !== config.max_ack_pending
    ) {
      await this.jsm.consumers.update(this.stream, this.options.durableName, {
        ack_wait: config.ack_wait,
        max_ack_pending: config.max_ack_pending,
      });
    }
    this.consumer = await this.js.consumers.get(this.stream, this.options.durableName);
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failed = false;
    while (!signal.aborted) {
      try {
        if (failed) await this.recover();
        failed = false;
        const waiting = await this.pending();
        this.fetching = await this.consumer!.fetch({
          max_messages: Math.min(this.batchSize, Math.max(1, waiting)),
          expires: this.settings.fetchExpiresMs,
        });
        if (signal.aborted) this.fetching.stop();
        const messages: JsMsg[] = [];
        for await (const m of this.fetching) messages.push(m);
        this.fetching = undefined;
        if (signal.aborted) {
          for (const m of messages) m.nak();
          await this.nc.flush();
          return;
        }
        if (messages.length > 0) await this.deliver(messages, signal);
      } catch (error) {
        this.fetching = undefined;
        if (signal.aborted) return;
        failed = true;
        this.settings.logger?.error('NATS consumer failed; retrying', { consumer: this.options.durableName, error });
        await pause(this.settings.retryDelayMs, signal);
      }
    }
  }

  private async deliver(raw: JsMsg[], signal: AbortSignal): Promise<void> {
    const messages: NatsMessage[] = [];
    for (const m of raw) {
      try {
        messages.push(new NatsMessage(this.settings.parse(m), m));
      } catch (error) {
        this.settings.logger?.error('unreadable message on the event stream; terminated', { seq: m.seq, error });
        m.term('unreadable');
      }
    }
    let failed = false;
    try {
      if (messages.length > 0) await this.handler(messages);
    } catch (error) {
      failed = true;
      this.settings.logger?.error('event handler failed; its unsettled messages come again', { error });
    }
    await Promise.all(messages.map((m) => m.nak())); // the unsettled ones, in one write
    await this.nc.flush();
    if (failed) await pause(this.settings.retryDelayMs, signal);
  }
}

/** A delivered event; the first of ack, nak and term settles it, the others do nothing. */
class NatsMessage implements BusMessage {
  private settled = false;

  constructor(
    readonly event: RecordedEvent,
    private readonly raw: JsMsg,
  ) {}

  /** Read when asked: parsing the reply subject of every message costs more than the few reads of it. */
  get deliveryCount(): number {
    return this.raw.info.deliveryCount;
  }

  async ack(): Promise<void> {
    if (this.settle()) this.raw.ack();
  }

  async nak(delayMs?: number): Promise<void> {
    if (this.settle()) this.raw.nak(delayMs);
  }

  async term(): Promise<void> {
    if (this.settle()) this.raw.term();
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    return true;
  }
}
