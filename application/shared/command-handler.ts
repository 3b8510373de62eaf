/**
 * The work under the write engine (aggregate.ts, through which the application calls it): load, decide, append, with
 * deterministic event ids, bounded retry, guard-stream claims and idempotency-key replay (docs/event-store.md, "The
 * command handler"). Only a proven hot spot (the flash-sale pool) has a writer of its own.
 */
import { evolveAll, fold, type Decider, type DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';
import type { Clock } from './clock.js';
import { eventMetadata, type CommandContext } from './command-context.js';
import { claimId, expectedVersionOf, planWrites, recordId } from './command-writes.js';
import { commandEventId } from './event-ids.js';
import { WrongExpectedVersionError, type EventStore, type ExpectedVersion, type RecordedEvent } from './event-store.js';
import { reclaim, type GuardClaim, type SideWrite } from './guard-claims.js';
import { findIdempotencyRecord, idempotencyKeyReused, idempotencyStream, recordedHistory } from './idempotency.js';

export type { CommandContext } from './command-context.js';
export { nameBasedUuid } from './event-ids.js';
export { expectedVersionOf } from './command-writes.js';

/**
 * A stream's event as far as deciding needs it: what the store records, where the global position and the time of
 * recording may be unknown (events this process appended, known from the append rather than read back).
 */
export type KnownEvent = Omit<RecordedEvent, 'position' | 'recordedAt'> &
  Partial<Pick<RecordedEvent, 'position' | 'recordedAt'>>;

/** An aggregate's state as of `revision`, the revision of its last event (-1: no stream). */
export interface Loaded<S> {
  state: S;
  revision: number;
}

/**
 * Folds a stream's events, read through the context's decoder (upcast to their current shapes), into state; with the
 * events as read, which a command on the stream may be handed (CommandSpec.recorded).
 */
export async function loadAggregate<S, E extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<unknown, S, E>, 'evolve' | 'evolveMany' | 'initialState'>,
  decoder: EventDecoder<E>,
  streamName: string,
): Promise<Loaded<S> & { recorded: readonly RecordedEvent[] }> {
  const events = await store.readStream(streamName);
  return {
    recorded: events,
    state: fold(
      decider,
      events.map((e) => decoder.decode(e)),
    ),
    revision: events.length ? events[events.length - 1]!.revision : -1,
  };
}

/** Brings a loaded state up to date by folding only the events after its revision. */
export async function catchUp<S, E extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<unknown, S, E>, 'evolve' | 'evolveMany'>,
  decoder: EventDecoder<E>,
  streamName: string,
  loaded: Loaded<S>,
): Promise<Loaded<S>> {
  const events = await store.readStream(streamName, { fromRevision: loaded.revision + 1 });
  if (events.length === 0) return loaded;
  return {
    state: evolveAll(
      decider,
      loaded.state,
      events.map((e) => decoder.decode(e)),
    ),
    revision: events[events.length - 1]!.revision,
  };
}

/** One command on one aggregate, and what else its events write. */
export interface CommandSpec<C, S, E extends DomainEvent> {
  decider: Decider<C, S, E>;
  /** Reads the stream's events (the context decoder's view of the stream's category). */
  decoder: EventDecoder<E>;
  streamName: string;
  /** The command, given its time (ISO 8601, from the Clock: also the events' occurredAt) and the current state. */
  command: (now: string, state: S) => C;
  /** Guard streams the decided events claim: written first, each with 'no_stream'. */
  claims?: (events: readonly E[]) => GuardClaim[];
  /** Other streams the decided events write, in the same append. */
  sideWrites?: (events: readonly E[]) => SideWrite[];
  /**
   * The stream's events as the caller knows them (just read, [] for a stream it has just named, or a
   * CommandResult.recorded it kept): the first attempt decides on them instead of reading the stream. A stale view
   * costs a conflict and a retry, never a wrong write: the append expects the revision they end at. Nor a wrong
   * refusal: a decision on them that refuses or decides nothing is made again on the stream as read.
   */
  recorded?: readonly KnownEvent[];
  /**
   * Other aggregates' decisions that follow from the events (a decision over several streams: aggregate.ts,
   * handleMany): made for each attempt on those streams as read then, and written at the revisions read, after
   * `sideWrites`. A refusal is the command's; a conflict on one of their streams, or DecideAgain, decides everything
   * again like a conflict on the command's own stream.
   */
  follow?: (events: readonly E[], before: S, now: string) => Promise<SideWrite[]>;
  /** Before deciding again after a conflict: reload what the command was built from (it may have moved too). */
  beforeRetry?: () => Promise<void>;
}

/**
 * Thrown by a CommandSpec.follow whose reads show the decision was made on something that moved meanwhile: the
 * attempt counts as a conflict, and is made again on fresh state (thrown itself once the attempts are spent).
 */
export class DecideAgain extends Error {
  constructor(message = 'what the decision read moved meanwhile') {
    super(message);
    this.name = 'DecideAgain';
  }
}

export interface CommandResult<S, E> {
  /** State after the events (unchanged when none were decided). */
  state: S;
  revision: number;
  events: E[];
  /**
   * The command had already been carried out (the same command id retried, or a resend under its idempotency key):
   * state and events are those of the first time, and nothing was appended.
   */
  replayed: boolean;
  /**
   * With CommandHandlerOptions.keepRecorded: the stream's events after the command, as far as this handler knows
   * (what it decided on and what it appended), for a caller that hands them to its next command on the stream
   * (CommandSpec.recorded); absent after a replay.
   */
  recorded?: readonly KnownEvent[];
}

export interface CommandHandlerDeps {
  store: EventStore;
  clock: Clock;
  /** The context's decoder: every event written (the stream's, claims, side writes) is stamped with its current schema version. */
  decoder: Pick<EventDecoder<DomainEvent>, 'currentVersion'>;
}

export interface CommandHandlerOptions {
  /** Attempts in all, counting the first, when other writers keep moving the stream. Default 5. */
  maxAttempts?: number;
  /** Answer the stream's events as they stand after the command (CommandResult.recorded). */
  keepRecorded?: boolean;
}

/**
 * Load, decide, append for one stream, as `context`'s command:
 * - The stream is read and the command decided against its state; the events are appended with the revision read as
 *   expected version, with ids derived from the command id. A command id whose events the stream already holds is
 *   answered from them (a retried request appends nothing twice).
 * - The guard claims and side writes of the events go in the same appendMany, in this order: idempotency record,
 *   claims, side writes placed before, the stream, side writes placed after. A store without multi-stream
 *   transactions writes them one by one; a record or claim whose own write then never happened is taken over by the
 *   next command (guard-claims.ts, idempotency.ts).
 * - When another writer moved the stream first, the whole cycle runs again on fresh state, at most `maxAttempts`
 *   times; then the WrongExpectedVersionError is thrown. A lost claim throws its own domain error; domain errors of
 *   the decider propagate at once.
 * - With an idempotency key, a resend is answered from the first command's events and a different request refused
 *   (IDEMPOTENCY_KEY_REUSED). The key's record is looked up only when the command shows the key may be used: its
 *   decision throws or decides nothing, or the append finds the record there (it expects none). A first request,
 *   the common case, thus costs no read of the key.
 */
export async function handleCommand<C, S, E extends DomainEvent>(
  deps: CommandHandlerDeps,
  context: CommandContext,
  spec: CommandSpec<C, S, E>,
  options: CommandHandlerOptions = {},
): Promise<CommandResult<S, E>> {
  const { store } = deps;
  const maxAttempts = options.maxAttempts ?? 5;
  const now = deps.clock.now().toISOString();
  const metadata = eventMetadata(context, now);
  const key = context.idempotency;
  const keyStream = key && idempotencyStream(key);
  /** Expected version of the key's record (null: this command's own record is stored already). */
  let keyExpected: ExpectedVersion | null = 'no_stream';
  /** Claims that conflicted, and how to claim them again. */
  const reclaimed = new Map<string, ExpectedVersion | null>();

  /** Answers from the key's record; false when the key is unused or its record is stale (then claimed again). */
  const replayFromKey = async (): Promise<CommandResult<S, E> | false> => {
    const record = key && (await findIdempotencyRecord(store, key));
    if (!record) return false;
    if (record.used.requestHash !== key.requestHash) throw idempotencyKeyReused(key);
    const history = await recordedHistory(store, record.used);
    if (history) return replay(spec, history, history.length - record.used.count);
    keyExpected = record.recorded.id === recordId(context, spec.streamName) ? null : record.recorded.revision;
    return false;
  };

  /** Whether the key's record was looked up already; a used key then answers before anything is decided again. */
  let keyLookedUp = false;
  const lookUpKeyOnce = async (): Promise<CommandResult<S, E> | false> => {
    if (!key || keyLookedUp) return false;
    keyLookedUp = true;
    return replayFromKey();
  };

  /** Whether this attempt decides on the caller's `recorded` rather than on the stream as read. */
  let unread = spec.recorded !== undefined;
  for (let attempt = 1; ; attempt++) {
    const recorded: readonly KnownEvent[] = unread ? spec.recorded! : await store.readStream(spec.streamName);
    const revision = recorded.at(-1)?.revision ?? -1;
    const done = firstEventOf(recorded, context.commandId, spec.streamName);
    if (done >= 0) {
      // Under a key the command id comes from the key: its record tells a resend from another request.
      const replayed = await lookUpKeyOnce();
      if (replayed) return replayed;
      const end = done + eventsOf(recorded, done, context.commandId, spec.streamName);
      return replay(spec, recorded.slice(0, end), done);
    }
    const state = fold(
      spec.decider,
      recorded.map((e) => spec.decoder.decode(e)),
    );
    let events: E[];
    let followed: SideWrite[] = [];
    try {
      events = spec.decider.decide(spec.command(now, state), state);
      if (spec.follow && events.length > 0) followed = await spec.follow(events, state, now);
    } catch (error) {
      if (error instanceof DecideAgain) {
        if (attempt >= maxAttempts) throw error;
        unread = false;
        await spec.beforeRetry?.();
        continue;
      }
      if (unread) {
        // Refused on events the caller handed in, which may be stale: decided again on the stream as read.
        unread = false;
        continue;
      }
      // A resend finds the state its first time left, which the decider may refuse: the key answers it.
      const replayed = await lookUpKeyOnce();
      if (replayed) return replayed;
      throw error;
    }
    if (events.length === 0 && unread) {
      unread = false;
      continue;
    }
    unread = false;
    if (events.length === 0) {
      if (!key) return { state, revision, events, replayed: false, ...(options.keepRecorded && { recorded }) };
      const replayed = await lookUpKeyOnce();
      if (replayed) return replayed;
    }
    const claims = spec.claims?.(events) ?? [];
    const writes = planWrites(deps.decoder, context, metadata, spec.streamName, revision, events, {
      claims,
      sideWrites: [...(spec.sideWrites?.(events) ?? []), ...followed],
      reclaimed,
      record: key && keyExpected !== null ? { expected: keyExpected, usedAt: now } : undefined,
    });
    try {
      if (writes.length > 0) await store.appendMany(writes);
      const stream =
        options.keepRecorded &&
        writes.find((w) => w.streamName === spec.streamName && w.expectedVersion === expectedVersionOf(revision));
      return {
        state: evolveAll(spec.decider, state, events),
        revision: revision + events.length,
        events,
        replayed: false,
        ...(options.keepRecorded && {
          recorded: stream
            ? [
                ...recorded,
                ...stream.events.map((e, i) => ({
                  id: e.id,
                  streamName: spec.streamName,
                  type: e.type,
                  schemaVersion: e.schemaVersion ?? 1,
                  data: e.data,
                  metadata: e.metadata,
                  revision: revision + 1 + i,
                })),
              ]
            : recorded,
        }),
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (error.streamName === keyStream) {
        // The key is used (by a first time of this request, or by another request meanwhile): answer as a resend,
        // or refuse.
        keyLookedUp = true;
        const replayed = await replayFromKey();
        if (replayed) return replayed;
      } else {
        const claim = claims.find((c) => c.streamName === error.streamName);
        if (claim)
          reclaimed.set(
            claim.streamName,
            await reclaim(store, claim, claimId(context, spec.streamName, claim, claims.indexOf(claim))),
          );
        else if (error.streamName !== spec.streamName && !followed.some((w) => w.streamName === error.streamName))
          throw error;
      }
      if (attempt >= maxAttempts) throw error;
      await spec.beforeRetry?.();
    }
  }
}

/** Index of the command's first event in the stream, -1 when it holds none. */
function firstEventOf(recorded: readonly KnownEvent[], commandId: string, streamName: string): number {
  const first = commandEventId(commandId, streamName, 0);
  for (let i = recorded.length - 1; i >= 0; i--) if (recorded[i]!.id === first) return i;
  return -1;
}

/** How many events of the command follow from `start`. */
function eventsOf(recorded: readonly KnownEvent[], start: number, commandId: string, streamName: string): number {
  let n = 0;
  while (start + n < recorded.length && recorded[start + n]!.id === commandEventId(commandId, streamName, n)) n++;
  return n;
}

/** A decoded event as the domain sees it (decoding keeps the stored envelope around it). */
const domainEventOf = <E extends DomainEvent>(event: E): E => ({ type: event.type, data: event.data }) as E;

/** The answer of a command carried out before: `history` ends with its events, which start at `start`. */
function replay<C, S, E extends DomainEvent>(
  spec: Pick<CommandSpec<C, S, E>, 'decider' | 'decoder'>,
  history: readonly KnownEvent[],
  start: number,
): CommandResult<S, E> {
  const decoded = history.map((e) => spec.decoder.decode(e));
  return {
    state: fold(spec.decider, decoded),
    revision: history.length - 1,
    // The events as the decider gave them the first time: type and data, not the stored envelope.
    events: decoded.slice(start).map(domainEventOf),
    replayed: true,
  };
}
