/**
 * The states of a batched stream writer's hot streams, kept in memory (docs/batched-stream-writer.md). They only
 * ever hold stored state; a stream another writer moved is marked stale and caught up from its cached revision on.
 */
import { notReady, type DraftStream, type DraftStreams, type StreamFamily } from './batch-draft.js';
import type { Loaded } from './command-handler.js';
import type { AppendResult, EventStore, RecordedEvent } from './event-store.js';

/** A stream as stored at `revision`; stale: another writer moved it, catch up before deciding. */
export interface HotSlot<S> extends Loaded<S> {
  stale: boolean;
}

export interface HotStreamSource<K, S> {
  streamName(key: K): string;
  initialState: S;
  /** Folds one stored event into the state. */
  evolve(state: S, event: RecordedEvent): S;
}

export class HotStreams<K, S> implements StreamFamily<K, S, unknown> {
  private readonly slots = new Map<K, HotSlot<S>>();
  private readonly loads = new Map<K, Promise<boolean>>();
  private readonly absent: Loaded<S>;

  constructor(
    private readonly store: EventStore,
    private readonly source: HotStreamSource<K, S>,
  ) {
    this.absent = { state: source.initialState, revision: -1 };
  }

  streamName(key: K): string {
    return this.source.streamName(key);
  }

  /** Whether the stream's state is cached and current: `ensure` has nothing to do. */
  isReady(key: K): boolean {
    const slot = this.slots.get(key);
    return slot !== undefined && !slot.stale;
  }

  /** Loads the stream unless its state is cached and current; records in `absent` whether it has no stream. */
  async ensure(key: K, absent: Set<K>): Promise<void> {
    const slot = this.slots.get(key);
    if (slot && !slot.stale) return;
    let load = this.loads.get(key);
    if (!load) {
      load = this.load(key, slot).finally(() => this.loads.delete(key));
      this.loads.set(key, load);
    }
    if (await load) absent.delete(key);
    else absent.add(key);
  }

  /**
   * The stream as a batch sees it: its draft, its parent's, else the cached state (which must be current), else
   * the initial state if `absent` (the job's ensure) found no stream. Throws notReady when it has to be loaded.
   */
  stateIn<J>(draft: DraftStreams<K, S, J>, key: K, absent: Set<K>): Loaded<S> {
    const drafted = draft.entries.get(key) ?? draft.inherited(key);
    if (drafted) return drafted;
    const slot = this.slots.get(key);
    if (slot && !slot.stale) return slot;
    if (!slot && absent.has(key)) return this.absent;
    throw notReady;
  }

  /** The stream's state as stored now: the cached state, caught up with whatever other writers appended. */
  async current(key: K): Promise<S> {
    if (this.slots.has(key)) await this.isCurrent(key);
    else await this.load(key, undefined);
    return this.slots.get(key)?.state ?? this.source.initialState;
  }

  /** Whether the cached state is still the stored one; if not, catches the cache up. */
  async isCurrent(key: K): Promise<boolean> {
    const slot = this.slots.get(key);
    const events = await this.store.readStream(this.source.streamName(key), {
      fromRevision: (slot?.revision ?? -1) + 1,
    });
    if (events.length === 0) return true;
    if (slot && this.slots.get(key) === slot) {
      const state = events.reduce((s, e) => this.source.evolve(s, e), slot.state);
      this.slots.set(key, { state, revision: events[events.length - 1]!.revision, stale: false });
    }
    return false;
  }

  stored(key: K, entry: DraftStream<S, unknown>, result: AppendResult): void {
    this.slots.set(key, { state: entry.state, revision: result.nextExpectedVersion, stale: false });
  }

  conflicted(key: K): void {
    this.markStale(key);
  }

  forget(key: K): void {
    this.markStale(key);
  }

  private markStale(key: K): void {
    const slot = this.slots.get(key);
    if (slot) this.slots.set(key, { ...slot, stale: true });
  }

  /** Reads a stream (from the cached revision of `from` on, if any); false when it has no stream. */
  private async load(key: K, from: HotSlot<S> | undefined): Promise<boolean> {
    const stream = this.source.streamName(key);
    const events = await this.store.readStream(stream, from ? { fromRevision: from.revision + 1 } : undefined);
    const loaded =
      events.length === 0
        ? (from ?? this.absent)
        : {
            state: events.reduce((s, e) => this.source.evolve(s, e), from ? from.state : this.source.initialState),
            revision: events[events.length - 1]!.revision,
          };
    if (loaded.revision < 0) return false;
    // Install only over the entry the read started from: the writer may have stored newer state meanwhile.
    if (this.slots.get(key) === from) this.slots.set(key, { ...loaded, stale: false });
    return true;
  }
}
