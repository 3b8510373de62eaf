import { connect, headers, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  JetStreamApiCodes,
  PubHeaders,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { BusConsumer, BusMessage, ConsumerOptions, EventBus } from '../../../application/shared/event-bus.js';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import { giveWay } from '../event-loop-turns.js';
import type { Logger } from '../logger.js';
import { followsHeader, NatsConsumer } from './nats-consumer.js';
import { isApiError } from './nats-errors.js';
import { lastSequenceAtOrBefore, positionHeader } from './stream-positions.js';

export { followsHeader, positionHeader };

export interface NatsEventBusOptions {
  /** JetStream stream name (NATS_STREAM). */
  stream: string;
  /** Subjects are `<prefix>.<context>.<category>.<type>`; the stream captures `<prefix>.>` (NATS_SUBJECT_PREFIX). */
  subjectPrefix: string;
  /**
   * The bounded context an event type belongs to (its decoder's), filed in the subject so that a consumer of one
   * context's events is given only those; undefined (or no function): `_`, which no such consumer is given.
   */
  contextOf?: (type: string) => string | undefined;
  /** A consumer whose event types all belong to one context is given only that context's events (default false). */
  filterByContext?: boolean;
  /** How long the server waits for an ack before redelivering (default 60 s). */
  ackWaitMs?: number;
  /** Stream dedupe window for Nats-Msg-Id (default 2 min, the server's). */
  duplicateWindowMs?: number;
  /** How long one fetch waits for a message when there is none (default 30 s; at least 1 s). */
  fetchExpiresMs?: number;
  /** Pause after a handler threw, before its messages come again (default 1 s). */
  retryDelayMs?: number;
  /**
   * How long a caught-up consumer waits, once the next message came, for the ones behind it, so they come as one batch
   * (default 0: not at all; docs/projections.md, "Buses").
   */
  fetchLingerMs?: number;
  logger?: Pick<Logger, 'error' | 'warn'>;
}

/** How many parsed events a bus keeps for its other consumers (as many as the in-process bus buffers): projectors that far apart still share one parse. */
const parsedKept = 50_000;

/** Headers every published message carries besides Nats-Msg-Id (= event id) and positionHeader. */
export const typeHeader = 'Event-Type';

const token = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_') || '_';

/**
 * `<prefix>.<context>.<category>.<type>`, the category being the stream name before its first '-', the context `_`
 * when not known.
 */
export function subjectFor(
  prefix: string,
  event: Pick<RecordedEvent, 'streamName' | 'type'>,
  context: string | undefined,
): string {
  const dash = event.streamName.indexOf('-');
  const category = dash < 0 ? event.streamName : event.streamName.slice(0, dash);
  return `${prefix}.${token(context ?? '_')}.${token(category)}.${token(event.type)}`;
}

/** The subjects of one context's events: what a consumer of that context alone is given. */
export const contextSubjects = (prefix: string, context: string) => `${prefix}.${token(context)}.>`;

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
   * Per context, the position of the last event this bus published to it, since it last knew itself the stream's only
   * publisher (followsHeader); cleared whenever it may not be.
   */
  private readonly lastOfContext = new Map<string, string>();

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
      // Not knowing the stream's last message, this bus may not have published what precedes the next events.
      if (this.expectedLastSeq === undefined) this.lastOfContext.clear();
      const base = this.expectedLastSeq ?? (await this.streamInfo()).state.last_seq;
      this.expectedLastSeq = undefined;
      const last = remaining.length - 1;
      for (let i = 0; i < last; i++) {
        // A run of 1,000 events takes the loop some milliseconds to address and send (docs/projections.md, "The event loop").
        await giveWay();
        const [subject, headers] = this.addressOf(remaining[i]!, base + i);
        this.nc.publish(subject, JSON.stringify(remaining[i]), { headers });
      }
      const [subject, headers] = this.addressOf(remaining[last]!, base + last);
      const ack = await this.js.publish(subject, JSON.stringify(remaining[last]), { headers }).catch(() => undefined);
      if (ack && !ack.duplicate && ack.seq === base + remaining.length) {
        this.expectedLastSeq = ack.seq;
        return;
      }
      this.lastOfContext.clear();
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
    const message = await this.lastMessage();
    if (!message) return null;
    const position = message.header.get(positionHeader);
    if (!position)
      throw new Error(
        `stream ${this.options.stream}: last message ${message.seq} has no ${positionHeader}; cannot tell where the relay stopped`,
      );
    return position;
  }

  /** The event of the stream's last message, or null when the stream is empty (docs/projections.md, "Recovery"). */
  async lastPublished(): Promise<RecordedEvent | null> {
    const message = await this.lastMessage();
    return message ? message.json<RecordedEvent>() : null;
  }

  private async lastMessage() {
    const { state } = await this.streamInfo();
    this.expectedLastSeq = state.last_seq;
    if (state.last_seq === 0) return null;
    const message = await this.jsm.streams.getMessage(this.options.stream, { seq: state.last_seq });
    if (!message)
      throw new Error(
        `stream ${this.options.stream}: last message ${state.last_seq} is gone; cannot tell where the relay stopped`,
      );
    return message;
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
    const context = this.contextOfTypes(options.eventTypes);
    const consumer = new NatsConsumer(this.nc, this.jsm, this.js, this.options.stream, options, handler, {
      filterSubject: context === undefined ? undefined : contextSubjects(this.options.subjectPrefix, context),
      ackWaitMs: this.options.ackWaitMs ?? 60_000,
      fetchExpiresMs: Math.max(1000, this.options.fetchExpiresMs ?? 30_000),
      retryDelayMs: this.options.retryDelayMs ?? 1000,
      lingerMs: this.options.fetchLingerMs ?? 0,
      logger: this.options.logger,
      onStop: () => this.consumers.delete(consumer),
      parse: (m) => this.parse(m),
      ensureStream: () => this.ensureStream(),
      sequenceOf: (position) => lastSequenceAtOrBefore(this.jsm, this.options.stream, position),
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

  /** An event's subject and headers, as the message after `expectedLastSeq`; the event becomes its context's last. */
  private addressOf(event: RecordedEvent, expectedLastSeq: number): [string, MsgHdrs] {
    const context = this.options.contextOf?.(event.type);
    const h = headers();
    h.set(PubHeaders.MsgIdHdr, event.id);
    h.set(PubHeaders.ExpectedLastSeqHdr, String(expectedLastSeq));
    h.set(positionHeader, event.position);
    h.set(typeHeader, event.type);
    if (context !== undefined) {
      const follows = this.lastOfContext.get(context);
      if (follows !== undefined) h.set(followsHeader, follows);
      this.lastOfContext.set(context, event.position);
    }
    return [subjectFor(this.options.subjectPrefix, event, context), h];
  }

  /**
   * The one context whose events `eventTypes` all are, if there is one and events are filed by context: a consumer of
   * those types is then given only that context's events.
   */
  private contextOfTypes(eventTypes: ReadonlySet<string> | undefined): string | undefined {
    const { contextOf } = this.options;
    if (!contextOf || !this.options.filterByContext || !eventTypes || eventTypes.size === 0) return undefined;
    const contexts = new Set([...eventTypes].map((type) => contextOf(type)));
    const [only] = contexts;
    return contexts.size === 1 ? only : undefined;
  }
}
