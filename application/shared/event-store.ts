/**
 * The event store port. Its adapters (PostgreSQL, EventStoreDB, and one in
 * memory for fast tests) pass tests/contract/event-store.contract.ts.
 *
 * Revisions are 0-based per stream (an empty stream is -1), whatever the
 * backing store uses. Global positions are fixed-width strings: positions of
 * one store compare correctly as plain strings (`a < b` means a comes first
 * in the global log); never parse them as numbers, and never compare
 * positions of two different stores.
 *
 * Event ids are unique across the store (PostgreSQL enforces it; EventStoreDB
 * only deduplicates within a stream).
 */

/** Who caused an event and why; stored with every event. */
export interface EventMetadata {
  /** The command that appended the event (application/shared/command-context.ts). */
  commandId?: string;
  correlationId?: string;
  causationId?: string;
  requestId?: string;
  actor?: {
    merchantId?: string;
    terminalId?: string;
    userId?: string;
    operator?: string;
    miniAppId?: string;
    /** A process manager or timer of this service acting on its own (docs/process-managers.md). */
    process?: string;
  };
  occurredAt: string; // ISO 8601
  [key: string]: unknown;
}

export interface EventToAppend {
  /** UUID. Deterministic where a retry could append the same event twice. */
  id: string;
  type: string;
  schemaVersion?: number; // default 1
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  streamName: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
  /** 0-based revision in its stream. */
  revision: number;
  /** Global position (fixed width, compares as a string); pass it back to readAll/subscribe as a checkpoint. */
  position: string;
  recordedAt: string; // ISO 8601
}

/**
 * 'any': no check. 'no_stream': the stream must not exist.
 * 'stream_exists': it must exist. number: the revision of its last event.
 */
export type ExpectedVersion = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedVersion: number;
  /** Global position of the last event written. */
  position: string;
}

export interface StreamWrite {
  streamName: string;
  events: EventToAppend[];
  expectedVersion: ExpectedVersion;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedVersion,
    readonly actual: number, // -1 when the stream does not exist
  ) {
    super(`wrong expected version on ${streamName}: expected ${String(expected)}, actual ${actual}`);
    this.name = 'WrongExpectedVersionError';
  }
}

/** An event id that is already stored elsewhere than where a retried append would have put it. */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly eventId: string,
    readonly streamName: string, // the stream that already holds it
  ) {
    super(`event ${eventId} is already stored in ${streamName} at another place`);
    this.name = 'DuplicateEventIdError';
  }
}

export interface Subscription {
  stop(): Promise<void>;
}

/** What readAll reads of the log. */
export interface ReadAllOptions {
  /** Only events of these types; undefined: all. */
  types?: ReadonlySet<string>;
}

export interface EventStore {
  /**
   * Appends events (at least one) to one stream, checking the expected
   * version; a wrong one throws WrongExpectedVersionError with the actual
   * revision. Appending events whose ids are already the stream's events at
   * the same place (a retried append, with any expected version the first
   * append satisfied) writes nothing and returns the original result. An id
   * already stored anywhere else throws DuplicateEventIdError (unless the
   * expected version is wrong anyway: WrongExpectedVersionError). EventStoreDB
   * detects retries only: elsewhere it stores the id again.
   */
  append(streamName: string, events: EventToAppend[], expectedVersion: ExpectedVersion): Promise<AppendResult>;

  /**
   * Appends to several streams. PostgreSQL does it in one transaction (all or
   * nothing). EventStoreDB has no multi-stream transaction in this client:
   * there the writes run in order and the first failure stops the rest;
   * callers order writes so that a partial write is recoverable.
   */
  appendMany(writes: StreamWrite[]): Promise<AppendResult[]>;

  /** All events of a stream from a revision (default 0), in order, at most `limit` (default all); [] when missing. */
  readStream(streamName: string, options?: { fromRevision?: number; limit?: number }): Promise<RecordedEvent[]>;

  /** The last event of a stream (its highest revision); undefined when missing. One read, whatever its length. */
  readLastEvent(streamName: string): Promise<RecordedEvent | undefined>;

  /**
   * Events of the global log strictly after `checkpoint` (null: from the
   * start), in order, at most `limit`. Never skips an event that commits
   * after a later one was read. With `types`, only events of those types
   * (the others are passed over where the store keeps them, not sent): a
   * projector far behind reads what it applies, not every context's events
   * (docs/projections.md, "Catching up").
   */
  readAll(checkpoint: string | null, limit: number, options?: ReadAllOptions): Promise<RecordedEvent[]>;

  /**
   * The last event readAll gives now (undefined: none). Every event at or before it is readable: a read with `types`
   * that then comes back short has passed every event of those types up to it (docs/projections.md, "Catching up").
   */
  readLastOfAll(): Promise<RecordedEvent | undefined>;

  /**
   * Calls `handler` for each event after `checkpoint`, in global order, one
   * at a time: first the events already stored (catch-up), then live. The
   * handler's promise is awaited before the next event; when it rejects, the
   * same event is handed over again after a growing pause (never skipped).
   * `stop()` resolves once the handler in progress, if any, has finished and
   * no further event will be delivered.
   */
  subscribeToAll(checkpoint: string | null, handler: (event: RecordedEvent) => Promise<void>): Subscription;

  close(): Promise<void>;
}
