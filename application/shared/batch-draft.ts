/**
 * What a batch of the batched stream writer decided and has not stored yet, stream by stream, and how it becomes
 * one appendMany (docs/batched-stream-writer.md).
 */
import { expectedVersionOf, type Loaded } from './command-handler.js';
import type { AppendResult, EventToAppend, StreamWrite } from './event-store.js';

/** A stream's events in a batch: expected at `revision` before them, at `state` after them. */
export interface DraftStream<S, J> {
  revision: number;
  state: S;
  events: EventToAppend[];
  /**
   * The command whose stream this is (one it creates, or the last of the batch to change it): a conflict on the
   * stream costs that command an attempt and no other. Absent on streams the batch's commands share.
   */
  job?: J;
}

/** A kind of stream the writer's caller keeps state of: what each outcome of the batch's append means for it. */
export interface StreamFamily<K, S, J> {
  streamName(key: K): string;
  /** The stream's write is stored: `entry.state` is its state at `result.nextExpectedVersion`. */
  stored(key: K, entry: DraftStream<S, J>, result: AppendResult): void;
  /** The append failed on this stream's expected version: what this process holds of it is stale. */
  conflicted(key: K, entry: DraftStream<S, J>): void;
  /** The append failed for another reason, or may have been stored after all: forget what may be stale. */
  forget(key: K): void;
  /**
   * Whether the state this process holds is the stored one (catching it up if not). Families whose cached state
   * another process may move implement it: a refusal decided from that state is answered only once it is confirmed.
   */
  isCurrent?(key: K): Promise<boolean>;
}

/** A decision could not be made yet: a state it needs is not loaded. Thrown while deciding; the job goes again. */
export class NotReady {}
export const notReady = new NotReady();

/** One family's streams in a batch. `parent`: the same family in the batch appended while this one was decided. */
export class DraftStreams<K, S, J> {
  readonly entries = new Map<K, DraftStream<S, J>>();

  constructor(
    readonly family: StreamFamily<K, S, J>,
    public parent: DraftStreams<K, S, J> | undefined,
  ) {}

  /** The stream as the parent batch leaves it, if that batch writes it: at the revision after its events. */
  inherited(key: K): Loaded<S> | undefined {
    const entry = this.parent?.entries.get(key);
    return entry && { state: entry.state, revision: entry.revision + entry.events.length };
  }

  /** Whether this batch or its parent writes the stream. */
  claims(key: K): boolean {
    return this.entries.has(key) || (this.parent?.entries.has(key) ?? false);
  }
}

/**
 * What a batch decided, not yet stored: one DraftStreams per family, plus whatever else the caller's batch needs.
 * A batch decided while its parent is appended builds on the parent's states and is appended only once the parent
 * is stored (its expected revisions assume it); then it lets go of the parent.
 */
export abstract class BatchDraft<J> {
  /** In the order they are written: on a store that writes streams one by one, the likeliest conflict first. */
  abstract readonly streams: readonly DraftStreams<unknown, unknown, J>[];

  detach(): void {
    for (const family of this.streams) family.parent = undefined;
  }
}

/** One stream's write in the batch's appendMany, and whose it is. */
export interface PlannedWrite<J> {
  write: StreamWrite;
  family: StreamFamily<unknown, unknown, J>;
  key: unknown;
  entry: DraftStream<unknown, J>;
}

/** The batch's writes in the draft's family order, and each by stream name (a conflict names its stream). */
export function planWrites<J>(draft: BatchDraft<J>): {
  writes: PlannedWrite<J>[];
  byStream: Map<string, PlannedWrite<J>>;
} {
  const writes: PlannedWrite<J>[] = [];
  const byStream = new Map<string, PlannedWrite<J>>();
  for (const { family, entries } of draft.streams) {
    for (const [key, entry] of entries) {
      const streamName = family.streamName(key);
      const planned: PlannedWrite<J> = {
        write: { streamName, events: entry.events, expectedVersion: expectedVersionOf(entry.revision) },
        family,
        key,
        entry,
      };
      writes.push(planned);
      byStream.set(streamName, planned);
    }
  }
  return { writes, byStream };
}
