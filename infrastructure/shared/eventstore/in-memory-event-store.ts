import { systemClock, type Clock } from '../../../application/shared/clock.js';
import {
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type AppendResult,
  type EventStore,
  type RecordedEvent,
  type StreamWrite,
  type Subscription,
  type EventToAppend,
  type ExpectedVersion,
  type ReadAllOptions,
} from '../../../application/shared/event-store.js';
import { createLogger } from '../logger.js';
import {
  pagedEvents,
  subscribeToSource,
  WakeUps,
  type EventSource,
  type SubscriptionLogger,
} from './subscription-loop.js';
import { formatPosition, parsePosition } from './positions.js';
import { assertValidWrites, expectedVersionHolds } from './write-validation.js';

export interface InMemoryEventStoreOptions {
  /** recordedAt of appended events (default: the system clock). */
  clock?: Clock;
  logger?: SubscriptionLogger;
}

/** An event as kept: data and metadata as JSON text, so no caller's object is ever shared with the store. */
interface StoredEvent {
  id: string;
  streamName: string;
  type: string;
  schemaVersion: number;
  data: string;
  metadata: string;
  revision: number;
  position: string;
  recordedAt: string;
}

const subscriptionBatchSize = 500;

function serialise(event: EventToAppend): Pick<StoredEvent, 'id' | 'type' | 'schemaVersion' | 'data' | 'metadata'> {
  const data = JSON.stringify(event.data) as string | undefined;
  const metadata = JSON.stringify(event.metadata) as string | undefined;
  if (data === undefined || metadata === undefined)
    throw new TypeError(`event ${event.id} has no JSON data or metadata`);
  return { id: event.id.toLowerCase(), type: event.type, schemaVersion: event.schemaVersion ?? 1, data, metadata };
}

function toRecordedEvent(e: StoredEvent): RecordedEvent {
  return { ...e, data: JSON.parse(e.data) as unknown, metadata: JSON.parse(e.metadata) as RecordedEvent['metadata'] };
}

/**
 * The event store in memory, for fast tests (docs/testing.md). It passes the contract suite PostgreSQL passes and
 * keeps PostgreSQL's choices where the port leaves one open: appendMany is all or nothing, event ids are unique across
 * the store, and data and metadata go through JSON as in a `json` column (read back as fresh objects, a Date as its
 * ISO string). Each call does its whole work synchronously, so concurrent calls are serialised as transactions would
 * be. Positions are (append call, index within it), like PostgreSQL's (transaction, sequence).
 */
export class InMemoryEventStore implements EventStore {
  private readonly log: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly byId = new Map<string, StoredEvent>();
  private readonly subscriptions = new Set<Subscription>();
  /** Caught-up subscribers, woken by the next append. */
  private readonly wakeUps = new WakeUps();
  /**
   * What its subscriptions read: pages of the log (without the open check: close() stops them), then a wait for the
   * next append. Each read is synchronous, so no append slips in between it and the wait unnoticed.
   */
  private readonly source: EventSource = pagedEvents(
    async (after, limit) => this.readAfter(after, limit).map(toRecordedEvent),
    { pageSize: subscriptionBatchSize, wakeUps: this.wakeUps },
  );
  private transactions = 0;
  private closed = false;
  private readonly clock: Clock;
  private readonly logger: SubscriptionLogger;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? createLogger();
  }

  async append(streamName: string, events: EventToAppend[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const [result] = await this.appendMany([{ streamName, events, expectedVersion }]);
    return result!;
  }

  async appendMany(writes: StreamWrite[]): Promise<AppendResult[]> {
    this.assertOpen();
    assertValidWrites(writes);
    // As PostgreSQL answers it: writes already stored exactly as asked are a retry, answered with their original
    // result; the rest are written together, or nothing is.
    const { retried, misplaced } = this.findEarlierAppends(writes);
    const pending = writes.map((write, index) => ({ write, index })).filter(({ index }) => !retried.has(index));
    const revisions = new Map<string, number>();
    const revisionOf = (stream: string) => revisions.get(stream) ?? this.revision(stream);
    for (const { write } of pending) {
      const actual = revisionOf(write.streamName);
      if (!expectedVersionHolds(write.expectedVersion, actual))
        throw new WrongExpectedVersionError(write.streamName, write.expectedVersion, actual);
      revisions.set(write.streamName, actual + write.events.length);
    }
    if (misplaced) throw misplaced;
    // Serialised before anything is stored: data JSON cannot hold fails the whole call, as it fails PostgreSQL's
    // transaction.
    const serialised = pending.map(({ write, index }) => ({
      index,
      streamName: write.streamName,
      events: write.events.map(serialise),
    }));
    const results = new Map(retried);
    if (serialised.length > 0) {
      const transaction = BigInt(++this.transactions);
      let sequence = 0n;
      const recordedAt = this.clock.now().toISOString();
      for (const { index, streamName, events } of serialised) {
        let stream = this.streams.get(streamName);
        if (!stream) this.streams.set(streamName, (stream = []));
        for (const event of events) {
          const stored: StoredEvent = {
            ...event,
            streamName,
            revision: stream.length,
            position: formatPosition(transaction, sequence++),
            recordedAt,
          };
          stream.push(stored);
          this.log.push(stored);
          this.byId.set(stored.id, stored);
        }
        const last = stream[stream.length - 1]!;
        results.set(index, { nextExpectedVersion: last.revision, position: last.position });
      }
      this.wakeUps.ring();
    }
    return writes.map((_, index) => results.get(index)!);
  }

  /** The writes stored exactly as asked (a retry), with their original results, and the first id stored elsewhere. */
  private findEarlierAppends(writes: StreamWrite[]): {
    retried: Map<number, AppendResult>;
    misplaced?: DuplicateEventIdError;
  } {
    const retried = new Map<number, AppendResult>();
    let misplaced: DuplicateEventIdError | undefined;
    writes.forEach((write, index) => {
      const found = write.events.map((e) => this.byId.get(e.id.toLowerCase()));
      if (found.every((f) => f === undefined)) return;
      const first = found[0]?.revision ?? NaN;
      const exact = found.every((f, i) => f?.streamName === write.streamName && f.revision === first + i);
      if (exact && expectedVersionHolds(write.expectedVersion, first - 1)) {
        const last = found[found.length - 1]!;
        retried.set(index, { nextExpectedVersion: last.revision, position: last.position });
      } else {
        const clash = found.find((f) => f !== undefined)!;
        misplaced ??= new DuplicateEventIdError(clash.id, clash.streamName);
      }
    });
    return { retried, misplaced };
  }

  private revision(streamName: string): number {
    return (this.streams.get(streamName)?.length ?? 0) - 1;
  }

  async readStream(
    streamName: string,
    options: { fromRevision?: number; limit?: number } = {},
  ): Promise<RecordedEvent[]> {
    this.assertOpen();
    const fromRevision = options.fromRevision ?? 0;
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0)
      throw new RangeError(`invalid fromRevision: ${fromRevision}`);
    const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`invalid limit: ${limit}`);
    return (this.streams.get(streamName) ?? []).slice(fromRevision, fromRevision + limit).map(toRecordedEvent);
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    this.assertOpen();
    const last = (this.streams.get(streamName) ?? []).at(-1);
    return last && toRecordedEvent(last);
  }

  async readAll(checkpoint: string | null, limit: number, options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const { types } = options;
    if (types === undefined) return this.readAfter(checkpoint, limit).map(toRecordedEvent);
    const found: StoredEvent[] = [];
    for (let at = this.firstAfter(checkpoint); at < this.log.length && found.length < limit; at++)
      if (types.has(this.log[at]!.type)) found.push(this.log[at]!);
    return found.map(toRecordedEvent);
  }

  async readLastOfAll(): Promise<RecordedEvent | undefined> {
    this.assertOpen();
    const last = this.log.at(-1);
    return last && toRecordedEvent(last);
  }

  private readAfter(checkpoint: string | null, limit: number): StoredEvent[] {
    const first = this.firstAfter(checkpoint, limit);
    return this.log.slice(first, first + limit);
  }

  /** The index in the log of the first event past the checkpoint. */
  private firstAfter(checkpoint: string | null, limit = 1): number {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`invalid limit: ${limit}`);
    if (checkpoint === null) return 0;
    parsePosition(checkpoint);
    // By binary search: positions grow along the log.
    let low = 0;
    let high = this.log.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.log[middle]!.position <= checkpoint) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  subscribeToAll(checkpoint: string | null, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    this.assertOpen();
    if (checkpoint !== null) parsePosition(checkpoint);
    return subscribeToSource(this.subscriptions, this.source, checkpoint, handler, this.logger);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the in-memory event store is closed');
  }

  /** Stops every subscription; the store refuses every call afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}
