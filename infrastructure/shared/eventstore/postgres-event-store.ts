import type { Knex } from 'knex';
import {
  DuplicateEventIdError,
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
import {
  appendConflictCode,
  appendParameters,
  appendStatement,
  type AppendConflict,
  type AppendRow,
} from './append-statement.js';
import { preparedRows } from '../prepared-query.js';
import {
  pagedEvents,
  subscribeToSource,
  WakeUps,
  type EventSource,
  type SubscriptionLogger,
} from './subscription-loop.js';
import { formatPosition, parsePosition } from './positions.js';
import { SharedConflict, SharedStatements } from './shared-statements.js';
import { assertValidWrites, expectedVersionHolds } from './write-validation.js';

export interface PostgresEventStoreOptions {
  /**
   * How often a caught-up subscriber reads the log again (ms; default 250). An append through this same store wakes
   * its subscribers at once; appends by other processes are seen by this poll.
   */
  pollIntervalMs?: number;
  /** Most events a subscriber reads per round trip. */
  subscriptionBatchSize?: number;
  logger?: SubscriptionLogger;
  /**
   * Append statements in flight at most (default 2), a second only once the first has run `appendsPatienceMs`
   * (default 5); appends that come meanwhile share the next one (shared-statements.ts). Not used on a knex
   * transaction, whose statements all run in it anyway.
   */
  appendsInFlight?: number;
  appendsPatienceMs?: number;
}

interface EventRow {
  id: string;
  stream_name: string;
  revision: number | string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
  transaction_id: string;
  transaction_sequence: string;
}

const eventColumns = `id, stream_name, revision, type, schema_version, data, metadata, recorded_at,
  transaction_id::text AS transaction_id, transaction_sequence::text AS transaction_sequence`;

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamName: row.stream_name,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    revision: Number(row.revision),
    position: formatPosition(row.transaction_id, row.transaction_sequence),
    recordedAt: row.recorded_at.toISOString(),
  };
}

function isDuplicateEventId(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'events_pkey';
}

/** Where a write's events already are, if each of them is stored. */
interface StoredEvent {
  id: string;
  stream_name: string;
  revision: number | string;
  transaction_id: string;
  transaction_sequence: string;
}

/**
 * The event store on PostgreSQL (schema: migration 0002_event_store).
 *
 * An append or batch of any size is one statement, one round trip, atomic
 * on its own (see append-statement.ts): it locks and advances the
 * `event_streams` rows of the streams written (in name order, so concurrent
 * batches cannot deadlock), checks every expected version and inserts the
 * events only if all hold; otherwise it raises, and nothing of it stays.
 *
 * The global log is ordered by (transaction id, sequence) and only read below
 * the oldest transaction still running on the server, so an event committed
 * late by an older transaction is never skipped; the price is that a long
 * write transaction anywhere on the server holds readers back until it ends.
 *
 * The knex instance belongs to the caller; `close()` only stops subscriptions.
 */
export class PostgresEventStore implements EventStore {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly logger: SubscriptionLogger;
  private readonly subscriptions = new Set<Subscription>();
  /** Caught-up subscribers of this store, woken by its appends. */
  private readonly wakeUps = new WakeUps();
  /** What its subscriptions read: pages of the log, then a wait for an append here or the poll interval. */
  private readonly source: EventSource;
  private readonly statements: SharedStatements<AppendResult> | undefined;

  constructor(
    private readonly knex: Knex,
    options: PostgresEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.subscriptionBatchSize ?? 500;
    this.logger = options.logger ?? createLogger();
    this.source = pagedEvents((after, limit) => this.readAll(after, limit), {
      pageSize: this.batchSize,
      wakeUps: this.wakeUps,
      pollIntervalMs: this.pollIntervalMs,
    });
    this.statements = knex.isTransaction
      ? undefined
      : new SharedStatements((writes) => this.writeAtomically(writes), {
          inFlight: options.appendsInFlight,
          patienceMs: options.appendsPatienceMs,
        });
  }

  async append(streamName: string, events: EventToAppend[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const [result] = await this.appendMany([{ streamName, events, expectedVersion }]);
    return result!;
  }

  async appendMany(writes: StreamWrite[]): Promise<AppendResult[]> {
    assertValidWrites(writes);
    // A conflict may come from an earlier attempt of the same writes (a retry):
    // those are answered with their original result and the rest written again.
    let retried = new Map<number, AppendResult>();
    for (;;) {
      const pending = writes.map((write, index) => ({ write, index })).filter(({ index }) => !retried.has(index));
      try {
        const toWrite = pending.map((p) => p.write);
        const written =
          toWrite.length === 0
            ? []
            : this.statements
              ? await this.statements.append(toWrite)
              : await this.writeAtomically(toWrite).catch((e: unknown) => {
                  throw e instanceof SharedConflict ? e.error : e;
                });
        const results = new Map(retried);
        pending.forEach(({ index }, i) => results.set(index, written[i]!));
        this.wakeUps.ring();
        return writes.map((_, index) => results.get(index)!);
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) && !isDuplicateEventId(error)) throw error;
        const found = await this.findEarlierAppends(writes);
        if (found.retried.size > retried.size) {
          retried = found.retried;
          continue;
        }
        throw isDuplicateEventId(error) && found.misplaced ? found.misplaced : error;
      }
    }
  }

  /**
   * One statement, atomic on its own (no BEGIN and COMMIT round trips): when an expected version fails it raises, and
   * this throws a SharedConflict naming the write, around its WrongExpectedVersionError.
   */
  private async writeAtomically(writes: StreamWrite[]): Promise<AppendResult[]> {
    let rows: AppendRow[];
    try {
      // Prepared (infrastructure/shared/prepared-query.ts): planning it cost about 0.4 ms of PostgreSQL's CPU per
      // append, more than running it (docs/event-store.md, "Appends").
      rows = await preparedRows<AppendRow>(this.knex, appendStatement, appendParameters(writes));
    } catch (error) {
      const e = error as { code?: string; detail?: string };
      if (e.code !== appendConflictCode) throw error;
      const conflict = JSON.parse(e.detail!) as AppendConflict;
      const { streamName, expectedVersion } = writes[conflict.first_conflict - 1]!;
      throw new SharedConflict(
        conflict.first_conflict - 1,
        new WrongExpectedVersionError(
          streamName,
          expectedVersion,
          Number(conflict.revisions_before[conflict.first_conflict - 1]),
        ),
      );
    }
    const { transaction_id, revisions_before, sequences } = rows[0]!;
    // Sequences grow in the order the events were given (see appendStatement).
    let appended = 0;
    return writes.map(({ events }, i) => {
      appended += events.length;
      return {
        nextExpectedVersion: Number(revisions_before[i]) + events.length,
        position: formatPosition(transaction_id, sequences[appended - 1]!),
      };
    });
  }

  /**
   * Which writes are already stored exactly as asked (a retry), with their
   * original results, and the first event id stored anywhere else.
   */
  private async findEarlierAppends(
    writes: StreamWrite[],
  ): Promise<{ retried: Map<number, AppendResult>; misplaced?: DuplicateEventIdError }> {
    const ids = writes.flatMap((w) => w.events.map((e) => e.id.toLowerCase()));
    const { rows } = await this.knex.raw<{ rows: StoredEvent[] }>(
      `SELECT id, stream_name, revision, transaction_id::text AS transaction_id, transaction_sequence::text AS transaction_sequence
       FROM events WHERE id = ANY(?::uuid[])`,
      [ids],
    );
    const stored = new Map(rows.map((r) => [r.id, r]));
    const retried = new Map<number, AppendResult>();
    let misplaced: DuplicateEventIdError | undefined;
    writes.forEach((write, index) => {
      const found = write.events.map((e) => stored.get(e.id.toLowerCase()));
      if (found.every((f) => f === undefined)) return;
      const first = found[0] ? Number(found[0].revision) : NaN;
      const exact = found.every(
        (f, i) => f !== undefined && f.stream_name === write.streamName && Number(f.revision) === first + i,
      );
      if (exact && expectedVersionHolds(write.expectedVersion, first - 1)) {
        const last = found[found.length - 1]!;
        retried.set(index, {
          nextExpectedVersion: Number(last.revision),
          position: formatPosition(last.transaction_id, last.transaction_sequence),
        });
      } else {
        const clash = found.find((f) => f !== undefined)!;
        misplaced ??= new DuplicateEventIdError(clash.id, clash.stream_name);
      }
    });
    return { retried, misplaced };
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
    const rows =
      options.limit === undefined
        ? await preparedRows<EventRow>(
            this.knex,
            `SELECT ${eventColumns} FROM events WHERE stream_name = ? AND revision >= ? ORDER BY revision`,
            [streamName, fromRevision],
          )
        : await preparedRows<EventRow>(
            this.knex,
            `SELECT ${eventColumns} FROM events WHERE stream_name = ? AND revision >= ? ORDER BY revision LIMIT ?`,
            [streamName, fromRevision, options.limit],
          );
    return rows.map(toRecordedEvent);
  }

  async readLastEvent(streamName: string): Promise<RecordedEvent | undefined> {
    // The (stream_name, revision) key read backwards: one row, however long the stream.
    const rows = await preparedRows<EventRow>(
      this.knex,
      `SELECT ${eventColumns} FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1`,
      [streamName],
    );
    return rows[0] && toRecordedEvent(rows[0]);
  }

  async readAll(checkpoint: string | null, limit: number, options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`invalid limit: ${limit}`);
    const after = checkpoint === null ? null : parsePosition(checkpoint);
    const types = options.types === undefined ? undefined : [...options.types];
    // Rows of transactions at or above the snapshot's xmin may still be joined
    // by a lower, uncommitted transaction: read only below it. A filter by type
    // walks the same key in order and passes over the other rows in the server.
    const rows = await preparedRows<EventRow>(
      this.knex,
      `SELECT ${eventColumns} FROM events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         AND (transaction_id, transaction_sequence) > (?::text::xid8, ?::bigint)
         ${types === undefined ? '' : 'AND type = ANY(?::text[])'}
       ORDER BY events.transaction_id, events.transaction_sequence -- the columns, not the text aliases
       LIMIT ?`,
      [String(after?.major ?? 0n), String(after?.minor ?? -1n), ...(types === undefined ? [] : [types]), limit],
    );
    return rows.map(toRecordedEvent);
  }

  async readLastOfAll(): Promise<RecordedEvent | undefined> {
    // readAll's bound, the key read backwards: one row.
    const rows = await preparedRows<EventRow>(
      this.knex,
      `SELECT ${eventColumns} FROM events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.transaction_id DESC, events.transaction_sequence DESC
       LIMIT 1`,
      [],
    );
    return rows[0] && toRecordedEvent(rows[0]);
  }

  subscribeToAll(checkpoint: string | null, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    if (checkpoint !== null) parsePosition(checkpoint);
    return subscribeToSource(this.subscriptions, this.source, checkpoint, handler, this.logger);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}
