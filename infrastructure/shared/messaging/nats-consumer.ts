/**
 * The NATS JetStream bus's consumer side (docs/projections.md, "Buses"): a durable pull consumer and its messages.
 * The bus (nats-event-bus.ts) creates them.
 */
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  type Consumer,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { BusConsumer, BusMessage, ConsumerOptions } from '../../../application/shared/event-bus.js';
import type { RecordedEvent } from '../../../application/shared/event-store.js';
import type { Logger } from '../logger.js';
import { giveWay } from '../event-loop-turns.js';
import { pause } from '../pause.js';
import { isApiError, isHeartbeatsMissed } from './nats-errors.js';

/**
 * The position of the event published before this one in the same context's subjects, when this bus published that
 * one too (absent after the bus started or lost track): a consumer of that context alone tells from it that it was
 * given every event of the context before this one (projection-holes.ts).
 */
export const followsHeader = 'Event-Follows';

/**
 * A durable pull consumer fetching one batch at a time, sized to what is
 * waiting, so nothing is fetched ahead of a message the handler naks: the
 * nak'ed messages (naked without delay, in order) come first in the next fetch.
 *
 * Acks are cumulative (AckPolicy.All): after each batch one ack covers the run
 * of messages the handler acked from its start, instead of one ack per message
 * and consumer, which was a large share of the fan-out's work (every projector
 * receives every event). A consumer made with explicit acks is recreated so.
 *
 * Messages left unacked by a process that died, or by a lost connection, would
 * come back only after ack_wait, behind newer ones, and the projector would
 * skip them as already passed. So on start and after any error, a consumer
 * with unacked messages is recreated at the first message not yet applied:
 * after its checkpoint, never before its ack floor or the sequence it was last
 * created at (startSequence); what comes again after that is skipped by the
 * handler.
 */
export class NatsConsumer implements BusConsumer {
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private fetching: ConsumerMessages | undefined;
  private consumer: Consumer | undefined;
  private readonly batchSize: number;
  /** Set when the handler had the consumer created again: the last batch's count of what waits no longer holds. */
  private repositioned = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly options: ConsumerOptions,
    private readonly handler: (messages: BusMessage[]) => Promise<void>,
    private readonly settings: {
      /** Only the messages of these subjects (one context's events: the bus's contextSubjects); undefined: all. */
      filterSubject: string | undefined;
      ackWaitMs: number;
      fetchExpiresMs: number;
      retryDelayMs: number;
      /** How long a caught-up consumer waits, after the next message came, for those behind it (0: not at all). */
      lingerMs: number;
      logger: Pick<Logger, 'error' | 'warn'> | undefined;
      onStop: () => void;
      parse: (m: JsMsg) => RecordedEvent;
      /** Creates the stream when it is gone, so that the consumer can be created on it again. */
      ensureStream: () => Promise<void>;
      /** The stream sequence of the last message at or before an event position (0: none; undefined: cannot tell). */
      sequenceOf: (position: string) => Promise<number | undefined>;
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

  /**
   * Created again after the checkpoint now (recover), from the handler, while the loop waits for it: what the handler
   * is holding was given by the consumer before, and its ack goes nowhere (the handler passed over it anyway).
   */
  async reposition(): Promise<void> {
    await this.recover(true);
    this.repositioned = true;
  }

  async pending(): Promise<number> {
    const info = await this.jsm.consumers.info(this.stream, this.options.durableName);
    return info.num_pending + info.num_ack_pending;
  }

  /** Messages not yet delivered to this consumer. */
  private async undelivered(): Promise<number> {
    return (await this.jsm.consumers.info(this.stream, this.options.durableName)).num_pending;
  }

  /**
   * Creates the durable consumer, or creates it again at the first message it must be given (startSequence) when it
   * has unacked messages, would deliver messages its checkpoint is past, or was made with other settings. Quietly
   * when the handler asked for it (reposition).
   */
  private async recover(repositioning = false): Promise<void> {
    const config = {
      durable_name: this.options.durableName,
      ack_policy: AckPolicy.All,
      max_deliver: -1,
      ack_wait: nanos(this.settings.ackWaitMs),
      max_ack_pending: Math.max(1000, this.batchSize * 2),
      ...(this.settings.filterSubject !== undefined && { filter_subject: this.settings.filterSubject }),
    };
    let existing: ConsumerInfo | undefined;
    try {
      existing = await this.jsm.consumers.info(this.stream, this.options.durableName);
    } catch (error) {
      if (isApiError(error, JetStreamApiCodes.StreamNotFound)) {
        // The stream was lost (NATS restarted empty): recreate it and the consumer, which gets the republished log
        // from where its checkpoint is (the stream being empty, from the start); the handler skips what it had applied.
        this.settings.logger?.warn('the event stream is gone; creating it and the consumer again', {
          consumer: this.options.durableName,
        });
        await this.settings.ensureStream();
      } else if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    }
    const from = await this.startSequence(existing);
    const at =
      from > 1
        ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from }
        : { deliver_policy: DeliverPolicy.All };
    if (!existing) {
      await this.jsm.consumers.add(this.stream, { ...config, ...at });
    } else if (
      existing.num_ack_pending > 0 ||
      existing.delivered.stream_seq + 1 < from ||
      existing.config.ack_policy !== config.ack_policy ||
      (existing.config.filter_subject || undefined) !== this.settings.filterSubject
    ) {
      // A filter cannot be changed in place on nats-server 2.9. Messages between the ack floor and the first one the
      // new filter lets through that it should have had (published before subjects named the context) are read from
      // the event store by the projector, as events the bus gave to someone else (projection-holes.ts).
      if (!repositioning)
        this.settings.logger?.warn(
          existing.num_ack_pending > 0
            ? 'NATS consumer has unacked messages; recreating it at the first one not applied, to keep order'
            : existing.delivered.stream_seq + 1 < from
              ? 'NATS consumer is behind its checkpoint; recreating it after the checkpoint'
              : existing.config.ack_policy !== config.ack_policy
                ? 'NATS consumer acks one by one; recreating it with cumulative acks'
                : 'NATS consumer has another subject filter; recreating it with this one',
          { consumer: this.options.durableName, from, filter: this.settings.filterSubject ?? null },
        );
      await this.jsm.consumers.delete(this.stream, this.options.durableName);
      await this.jsm.consumers.add(this.stream, { ...config, ...at });
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

  /**
   * The first stream sequence the consumer must be given: the one after the largest of the stream message at its
   * checkpoint's position, the broker's ack floor, and the sequence the existing consumer was created at (it was
   * created there because everything before had been dealt with). Never the ack floor alone: nats-server 2.9 reports
   * 0 for a consumer created at a start sequence until its first ack, and a consumer that failed again before acking
   * was recreated at 1 and replayed the whole stream (docs/projections.md, "Where a consumer starts").
   */
  private async startSequence(existing: ConsumerInfo | undefined): Promise<number> {
    let done = 0;
    if (existing) {
      done = existing.ack_floor.stream_seq;
      if (existing.config.deliver_policy === DeliverPolicy.StartSequence)
        done = Math.max(done, (existing.config.opt_start_seq ?? 1) - 1);
    }
    const checkpoint = this.options.checkpoint ? this.options.checkpoint() : this.options.startAfter;
    if (checkpoint !== null) {
      const applied = await this.settings.sequenceOf(checkpoint);
      if (applied === undefined)
        this.settings.logger?.warn(
          'the event stream has a message without a position; the checkpoint cannot place it',
          {
            consumer: this.options.durableName,
          },
        );
      else done = Math.max(done, applied);
    }
    return done + 1;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failed = false;
    // How many messages wait after the last batch, as its last message tells (the consumer's pending count when it
    // was delivered); undefined: ask the server. Asking costs a JetStream API round trip per batch and consumer, which
    // with a dozen consumers per process was a large share of the fan-out's cost, so it is asked only at the start,
    // after an empty fetch, and after messages were nak'ed (they wait again, and that count does not include them).
    let waitingAfterLast: number | undefined;
    while (!signal.aborted) {
      try {
        if (failed) await this.recover();
        failed = false;
        // A filtered consumer's messages carry an estimate of what waits (nats-server 2.9 counted one more than came
        // after a batch), so it asks the server for the count of undelivered ones instead.
        const waiting =
          waitingAfterLast === undefined
            ? await this.pending()
            : waitingAfterLast > 0 && this.settings.filterSubject !== undefined
              ? await this.undelivered()
              : waitingAfterLast;
        const first = await this.fetch(Math.min(this.batchSize, Math.max(1, waiting)));
        const messages = first.messages;
        let cut = first.cut;
        if (!cut && waiting === 0 && messages.length > 0 && this.settings.lingerMs > 0 && !signal.aborted) {
          // Caught up, and the next event came: wait for those behind it, so that they come as one batch.
          await pause(this.settings.lingerMs, signal);
          const room = this.batchSize - messages.length;
          // Not pending(): that counts the message in hand too (delivered, not yet acked), and a fetch of one more
          // than there is would wait for fetchExpiresMs.
          const behind = signal.aborted || room <= 0 ? 0 : await this.undelivered();
          if (behind > 0) {
            const more = await this.fetch(Math.min(room, behind));
            messages.push(...more.messages);
            cut = more.cut;
          }
        }
        if (signal.aborted) {
          for (const m of messages) m.nak();
          await this.nc.flush();
          return;
        }
        waitingAfterLast = undefined;
        this.repositioned = false;
        const settled = messages.length > 0 && (await this.deliver(messages, signal));
        // A consumer the handler created again (reposition) starts after the checkpoint: nothing of a cut is lost.
        if (this.repositioned) waitingAfterLast = undefined;
        else if (cut) waitingAfterLast = await this.afterCut(messages.length);
        else if (settled) waitingAfterLast = messages[messages.length - 1]!.info.pending;
      } catch (error) {
        this.fetching = undefined;
        waitingAfterLast = undefined;
        if (signal.aborted) return;
        failed = true;
        this.settings.logger?.error('NATS consumer failed; retrying', { consumer: this.options.durableName, error });
        await pause(this.settings.retryDelayMs, signal);
      }
    }
  }

  /**
   * Up to `max` messages: the next one to come (within fetchExpiresMs), or when more are counted as waiting, those
   * (within a second, the client's least: a count too high then costs a second, not the fetch's whole expiry). `cut`:
   * the client ended the fetch on missed heartbeats, after the messages it answers (afterCut).
   */
  private async fetch(max: number): Promise<{ messages: JsMsg[]; cut: boolean }> {
    this.fetching = await this.consumer!.fetch({
      max_messages: max,
      expires: max > 1 ? Math.min(1000, this.settings.fetchExpiresMs) : this.settings.fetchExpiresMs,
    });
    if (this.abort.signal.aborted) this.fetching.stop();
    const messages: JsMsg[] = [];
    try {
      for await (const m of this.fetching) messages.push(m);
    } catch (error) {
      if (!isHeartbeatsMissed(error)) throw error;
      return { messages, cut: true };
    } finally {
      this.fetching = undefined;
    }
    return { messages, cut: false };
  }

  /**
   * After a fetch the client cut short because two idle heartbeats came late (a fetch of a batch waits 1 s, so its
   * heartbeats are 500 ms apart: on a busy machine this process or the server is often not scheduled that long). It
   * is no failure: the messages received were handled like any batch, and the consumer is kept. Those the server sent
   * after the cut went to a subscription that is gone, and stay unacked until ack_wait. Where newer messages wait,
   * their count is fetched next (not the lost ones', which would make the fetch wait for its expiry): the projector
   * finds the lost ones as a hole before them, reads them from the event store, and its cumulative ack settles them
   * (projection-holes.ts). Where none waits, nothing would show the hole: the consumer is created again after the
   * checkpoint (recover), which gives them at once. Treated as a failure, a cut dropped the batch in hand and created
   * the consumer again at the same checkpoint, every time: under load a projector made no progress for minutes
   * (issue 31). Answers the count to fetch next (undefined: ask the server).
   */
  private async afterCut(received: number): Promise<number | undefined> {
    // The acks first, so that the server does not count the messages just handled as unacked.
    await this.nc.flush();
    const info = await this.jsm.consumers.info(this.stream, this.options.durableName);
    const lost = info.num_pending === 0 && info.num_ack_pending > 0;
    this.settings.logger?.warn('NATS fetch cut short by missed heartbeats (a busy machine); kept what came', {
      consumer: this.options.durableName,
      received,
      waiting: info.num_pending,
      unacked: info.num_ack_pending,
    });
    if (!lost) return info.num_pending;
    await this.recover();
    return undefined;
  }

  /** Hands a batch to the handler; true when every message was settled by it (nothing nak'ed, nothing failed). */
  private async deliver(raw: JsMsg[], signal: AbortSignal): Promise<boolean> {
    const messages: NatsMessage[] = [];
    for (const m of raw) {
      // Parsing a batch of 1,000 takes a few milliseconds here, many more on a busy machine (docs/projections.md).
      await giveWay();
      try {
        messages.push(new NatsMessage(this.settings.parse(m), m, this.settings.filterSubject !== undefined));
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
    // One cumulative ack for the run of settled messages from the batch's start, ending at its last acked one. A
    // message acked after one that was not is left: acking it would ack the other too (it comes again after ack_wait
    // or a recreation, and the handler passes over it).
    let last: NatsMessage | undefined;
    for (const m of messages) {
      if (m.outcome === 'ack') last = m;
      else if (m.outcome !== 'term') break;
    }
    last?.sendAck();
    // Only nak'ed messages need the server to have them before the next count (pending() on the same connection).
    const naked = messages.filter((m) => m.nakIfUnsettled());
    if (naked.length > 0) await this.nc.flush();
    if (failed) await pause(this.settings.retryDelayMs, signal);
    return !failed && naked.length === 0;
  }
}

/**
 * A delivered event; the first of ack, nak and term settles it, the others do nothing. A nak or term goes to the
 * server at once; an ack is recorded and sent by the consumer after the batch, cumulatively (AckPolicy.All).
 */
class NatsMessage implements BusMessage {
  outcome: 'ack' | 'nak' | 'term' | undefined;

  constructor(
    readonly event: RecordedEvent,
    private readonly raw: JsMsg,
    /** The consumer is given one context's events only, so the follows header speaks of its own feed. */
    private readonly oneContext: boolean,
  ) {}

  get sequence(): number {
    return this.raw.seq;
  }

  get follows(): string | undefined {
    return this.oneContext ? (this.raw.headers?.get(followsHeader) ?? undefined) || undefined : undefined;
  }

  /** Read when asked: parsing the reply subject of every message costs more than the few reads of it. */
  get deliveryCount(): number {
    return this.raw.info.deliveryCount;
  }

  async ack(): Promise<void> {
    this.settle('ack');
  }

  async nak(delayMs?: number): Promise<void> {
    if (this.settle('nak')) this.raw.nak(delayMs);
  }

  async term(): Promise<void> {
    if (this.settle('term')) this.raw.term();
  }

  /** Acks this message and, the consumer's acks being cumulative, every earlier one of the consumer. */
  sendAck(): void {
    this.raw.ack();
  }

  /** Naks the message if nobody settled it; true when it did. */
  nakIfUnsettled(): boolean {
    if (!this.settle('nak')) return false;
    this.raw.nak();
    return true;
  }

  private settle(outcome: 'ack' | 'nak' | 'term'): boolean {
    if (this.outcome) return false;
    this.outcome = outcome;
    return true;
  }
}
