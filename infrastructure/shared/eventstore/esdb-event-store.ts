import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendExpectedRevision,
  type JSONType,
  type ReadStreamOptions,
  type RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedVersion,
  type RecordedEvent,
  type StreamWrite,
  type Subscription,
  type ReadAllOptions,
} from '../../../application/shared/event-store.js';
import { createLogger } from '../logger.js';
import { subscribeToSource, type SubscriptionLogger } from './subscription-loop.js';
import { formatPosition, parsePosition } from './positions.js';
import { assertValidWrites } from './write-validation.js';

export interface EventStoreDbEventStoreOptions {
  logger?: SubscriptionLogger;
}

/** EventStoreDB has no schema version field: it travels in the metadata under this key and is removed on read. */
const schemaVersionKey = '$schemaVersion';

function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream' || expected === -1) return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function isSystem(event: EsdbRecordedEvent): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.position)
    throw new Error('EventStoreDB returned an event without its position: the server must be 22.6 or later');
  const { [schemaVersionKey]: schemaVersion, ...metadata } = (event.metadata ?? {}) as EventMetadata & {
    [schemaVersionKey]?: number;
  };
  return {
    id: event.id,
    streamName: event.streamId,
    type: event.type,
    schemaVersion: schemaVersion ?? 1,
    data: event.data,
    metadata: metadata as EventMetadata,
    revision: Number(event.revision),
    position: formatPosition(event.position.commit, event.position.prepare),
    recordedAt: event.created.toISOString(),
  };
}

function toPosition(checkpoint: string): { commit: bigint; prepare: bigint } {
  const { major, minor } = parsePosition(checkpoint);
  return { commit: major, prepare: minor };
}

/**
 * The event store on EventStoreDB (22.6 or later), through @eventstore/db-client.
 *
 * Differences from PostgreSQL, within the port's contract:
 * - appendMany appends the writes one after the other, in the order given,
 *   and stops at the first failure: the writes before it stay written.
 * - A retried append is recognised by the server for exact revisions and
 *   'no_stream'; for 'any' and 'stream_exists' this adapter first compares
 *   the stream's last events with the ids being appended. An event id stored
 *   at another place is not refused, it is stored again.
 * - Every append reads its last event back for its global position, so the
 *   result of a retry is the original one.
 * - System events (streams or types starting with '$') never reach readers.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly logger: SubscriptionLogger;
  private readonly subscriptions = new Set<Subscription>();

  constructor(connectionString: string, options: EventStoreDbEventStoreOptions = {}) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.logger = options.logger ?? createLogger();
  }

  async append(streamName: string, events: EventToAppend[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    assertValidWrites([{ streamName, events, expectedVersion }]);
    return this.appendValid({ streamName, events, expectedVersion });
  }

  async appendMany(writes: StreamWrite[]): Promise<AppendResult[]> {
    assertValidWrites(writes);
    const results: AppendResult[] = [];
    for (const write of writes) results.push(await this.appendValid(write));
    return results;
  }

  private async appendValid({ streamName, events, expectedVersion }: StreamWrite): Promise<AppendResult> {
    if (expectedVersion === 'any' || expectedVersion === 'stream_exists') {
      const retried = await this.storedAtTail(streamName, events);
      if (retried) return retried;
    }
    let nextExpectedVersion: number;
    try {
      const result = await this.client.appendToStream(
        streamName,
        events.map((e) =>
          jsonEvent({
            id: e.id.toLowerCase(),
            type: e.type,
            data: (e.data ?? null) as JSONType,
            metadata: { ...e.metadata, [schemaVersionKey]: e.schemaVersion ?? 1 },
          }),
        ),
        { expectedRevision: toExpectedRevision(expectedVersion) },
      );
      nextExpectedVersion = Number(result.nextExpectedRevision);
    } catch (error) {
      if (error instanceof EsdbWrongExpectedVersionError) {
        const actual = error.actualVersion === NO_STREAM ? -1 : Number(error.actualVersion);
        throw new WrongExpectedVersionError(streamName, expectedVersion, actual);
      }
      throw error;
    }
    const [last] = await this.read(streamName, { fromRevision: BigInt(nextExpectedVersion), maxCount: 1 });
    if (!last) throw new Error(`event ${nextExpectedVersion} of ${streamName} is missing right after it was appended`);
    return { nextExpectedVersion, position: last.position };
  }

  /** The original result when the stream already ends with exactly these events (a retried append). */
  private async storedAtTail(streamName: string, events: EventToAppend[]): Promise<AppendResult | undefined> {
    const tail = (
      await this.read(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: events.length })
    ).reverse();
    if (tail.length !== events.length || tail.some((e, i) => e.id.toLowerCase() !== events[i]!.id.toLowerCase()))
      return undefined;
    const last = tail[tail.length - 1]!;
    return { nextExpectedVersion: last.revision, position: last.position };
  }

  private async read(streamName: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
    const found: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamName, options)) {
        if (resolved.event) found.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return found;
  }

  async readStream(
    streamName: string,
    options: { fromRevision?: number; limit?: number } = {},
  ): Promise<RecordedEvent[]> {
    const fromRevision = options.fromRevision ?? 0;
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0)
      throw new RangeError(`invalid fromRevision: ${fromRevision}`);
    if (options.limit !== undefined && (!Number.isSafeInteger(options.limit) || options.limit < 1))
      throw new RangeError(`invalid limit: ${options.limit}`);
    return this.read(streamName, {
      direction: FORWARDS,
      fromRevision: BigInt(fromRevision),
      ...(options.limit !== undefined && { maxCount: options.limit }),
    });
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    const [last] = await this.read(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
    return last;
  }

  async readAll(checkpoint: string | null, limit: number, options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`invalid limit: ${limit}`);
    const reading = this.client.readAll({
      direction: FORWARDS,
      fromPosition: checkpoint === null ? START : toPosition(checkpoint),
    });
    const found: RecordedEvent[] = [];
    try {
      for await (const resolved of reading) {
        const event = resolved.event;
        if (!event || isSystem(event)) continue;
        const recorded = toRecordedEvent(event);
        if (checkpoint !== null && recorded.position <= checkpoint) continue; // the read starts at the checkpoint itself
        // Filtered here: the client's readAll takes no filter (only its subscriptions do).
        if (options.types !== undefined && !options.types.has(recorded.type)) continue;
        found.push(recorded);
        if (found.length === limit) break;
      }
    } finally {
      await reading.cancel();
    }
    return found;
  }

  async readLastOfAll(): Promise<RecordedEvent | undefined> {
    const reading = this.client.readAll({ direction: BACKWARDS, fromPosition: END });
    try {
      for await (const resolved of reading) {
        const event = resolved.event;
        if (event && !isSystem(event)) return toRecordedEvent(event);
      }
    } finally {
      await reading.cancel();
    }
    return undefined;
  }

  subscribeToAll(checkpoint: string | null, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    if (checkpoint !== null) parsePosition(checkpoint);
    return subscribeToSource(
      this.subscriptions,
      (position, signal) => this.live(position, signal),
      checkpoint,
      handler,
      this.logger,
    );
  }

  /**
   * A catch-up subscription to $all from `position`, system events filtered out by the server; the loop opens it
   * again from the last handled event when the server drops it.
   */
  private async *live(position: string | null, signal: AbortSignal): AsyncGenerator<readonly RecordedEvent[]> {
    const subscription = this.client.subscribeToAll({
      fromPosition: position === null ? START : toPosition(position),
      filter: excludeSystemEvents(),
    });
    const unsubscribe = () => void subscription.unsubscribe().finally(() => subscription.destroy());
    signal.addEventListener('abort', unsubscribe, { once: true });
    try {
      for await (const resolved of subscription) {
        const event = resolved.event;
        if (event && !isSystem(event)) yield [toRecordedEvent(event)];
      }
    } finally {
      signal.removeEventListener('abort', unsubscribe);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}
