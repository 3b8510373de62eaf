/**
 * The write engine: THE way to write an ordinary aggregate. `aggregate({ decider, stream, decoder, eventDecoder },
 * deps)` names an aggregate once; `handle(context, id, command)` runs a command on one of its streams, `handleMany`
 * a decision that also writes other aggregates' streams (their decisions made through `decide`), both through
 * handleCommand (command-handler.ts): deterministic event ids, bounded retry, guard claims, idempotency replay.
 * docs/event-store.md, "The write engine". The one exception is the hot pools' batched writer
 * (batched-stream-writer.ts).
 */
import { evolveAll, type Decider, type DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';
import type { Clock } from './clock.js';
import type { CommandContext } from './command-context.js';
import {
  expectedVersionOf,
  handleCommand,
  loadAggregate,
  type CommandResult,
  type CommandSpec,
  type KnownEvent,
  type Loaded,
} from './command-handler.js';
import type { EventStore, RecordedEvent } from './event-store.js';
import type { GuardClaim, SideWrite } from './guard-claims.js';

export { DecideAgain, nameBasedUuid, type CommandResult, type KnownEvent, type Loaded } from './command-handler.js';
export type { GuardClaim, SideWrite } from './guard-claims.js';

/** What an aggregate is: its decider, how an id names its stream, and how its events are read and stamped. */
export interface AggregateSpec<C, S, E extends DomainEvent, Id> {
  decider: Decider<C, S, E>;
  /** The stream of the aggregate `id` names (`{category}-{id}`). */
  stream: (id: Id) => string;
  /** Reads the stream's events: the context decoder's view of the stream's category (`only(...)`). */
  decoder: EventDecoder<E>;
  /** The context's decoder: everything written (the stream's events, claims, side writes) gets its current version. */
  eventDecoder: Pick<EventDecoder<DomainEvent>, 'currentVersion'>;
  /** Guard streams every command's events claim (an invariant of the aggregate: a code, a key used once). */
  claims?: (events: readonly E[]) => GuardClaim[];
  /** Other streams every command's events write, in the same append (a lookup, an index). */
  sideWrites?: (events: readonly E[]) => SideWrite[];
  /** Attempts in all when other writers keep moving the stream (default 5): more for streams raced on. */
  maxAttempts?: number;
}

export interface AggregateDeps {
  store: EventStore;
  clock: Clock;
}

/** The command, given its time (ISO 8601 from the Clock: also the events' occurredAt) and the current state. */
export type CommandOf<C, S> = (now: string, state: S) => C;

/** What one command adds to its aggregate's spec. */
export interface HandleOptions<E> {
  /** Guard streams this command's events claim, after the aggregate's. */
  claims?: (events: readonly E[]) => GuardClaim[];
  /** Other streams this command's events write, after the aggregate's; a conflict on one throws. */
  sideWrites?: (events: readonly E[]) => SideWrite[];
  /**
   * The stream's events as the caller knows them ([] for a stream named by a fresh random id, what an earlier command
   * answered with `keepRecorded`): decided on without a read (CommandSpec.recorded). Never [] for a stream named from
   * the command id: a resend finds the first time's events there, which only a read tells (on [] it would decide
   * again, and the store would take the same event ids for a retry of the first append).
   */
  recorded?: readonly KnownEvent[];
  /** Answer the stream's events after the command (CommandResult.recorded), to hand to the next command. */
  keepRecorded?: boolean;
  /** Overrides the aggregate's. */
  maxAttempts?: number;
}

/** A decision over several streams: the command's, and what follows from its events in other aggregates. */
export interface HandleManyOptions<S, E> extends HandleOptions<E> {
  /**
   * The other aggregates' decisions (`other.decide(...)`, `other.decideOn(...)`), made for each attempt on their
   * streams as read then and written at those revisions in the command's append. A refusal is the command's; a
   * conflict on any of their streams (or DecideAgain) decides everything again.
   */
  follow: (events: readonly E[], before: S, now: string) => Promise<SideWrite[]>;
  /** Before deciding again after a conflict: reload what the command was built from. */
  beforeRetry?: () => Promise<void>;
}

/** Another aggregate's decision, to be written in a command's append (HandleManyOptions.follow). */
export interface Followed<S, E> {
  /** Its state after the events (the state read when it decided none). */
  state: S;
  events: E[];
  /** Its events at the revision read; empty when it decided none. */
  writes: SideWrite[];
}

export interface Aggregate<C, S, E extends DomainEvent, Id> {
  readonly decider: Decider<C, S, E>;
  streamName(id: Id): string;
  /** The aggregate's state and revision as its stream says, with the events as read (HandleOptions.recorded). */
  load(id: Id): Promise<Loaded<S> & { recorded: readonly RecordedEvent[] }>;
  /** The aggregate's state as its stream says. */
  state(id: Id): Promise<S>;
  /** Runs `command` on the aggregate `id`, as `context`'s command. */
  handle(
    context: CommandContext,
    id: Id,
    command: CommandOf<C, S>,
    options?: HandleOptions<E>,
  ): Promise<CommandResult<S, E>>;
  /** Runs `command` on the aggregate `id` and writes what follows from it in other aggregates, in one append. */
  handleMany(
    context: CommandContext,
    id: Id,
    command: CommandOf<C, S>,
    options: HandleManyOptions<S, E>,
  ): Promise<CommandResult<S, E>>;
  /** This aggregate's decision on `at` (a state its caller read), as a write of another command's append. */
  decideOn(id: Id, at: Loaded<S>, command: C, placement?: SideWrite['placement']): Followed<S, E>;
  /** Reads the aggregate, then decideOn. */
  decide(id: Id, command: (state: S) => C, placement?: SideWrite['placement']): Promise<Followed<S, E>>;
}

/** Names an aggregate once; its commands then say only what differs: the id, the command, and their options. */
export function aggregate<C, S, E extends DomainEvent, Id = string>(
  spec: AggregateSpec<C, S, E, Id>,
  deps: AggregateDeps,
): Aggregate<C, S, E, Id> {
  const { decider, decoder } = spec;
  const handlerDeps = { store: deps.store, clock: deps.clock, decoder: spec.eventDecoder };
  const both = <T>(a?: (events: readonly E[]) => T[], b?: (events: readonly E[]) => T[]) =>
    a && b ? (events: readonly E[]) => [...a(events), ...b(events)] : (a ?? b);

  const commandSpec = (id: Id, command: CommandOf<C, S>, options: HandleOptions<E>): CommandSpec<C, S, E> => {
    const claims = both(spec.claims, options.claims);
    const sideWrites = both(spec.sideWrites, options.sideWrites);
    return {
      decider,
      decoder,
      streamName: spec.stream(id),
      command,
      ...(claims && { claims }),
      ...(sideWrites && { sideWrites }),
      ...(options.recorded && { recorded: options.recorded }),
    };
  };
  const handlerOptions = (options: HandleOptions<E>) => ({
    maxAttempts: options.maxAttempts ?? spec.maxAttempts ?? 5,
    ...(options.keepRecorded && { keepRecorded: true }),
  });

  const self: Aggregate<C, S, E, Id> = {
    decider,
    streamName: spec.stream,
    load: (id) => loadAggregate(deps.store, decider, decoder, spec.stream(id)),
    state: async (id) => (await self.load(id)).state,
    handle: (context, id, command, options = {}) =>
      handleCommand(handlerDeps, context, commandSpec(id, command, options), handlerOptions(options)),
    handleMany: (context, id, command, options) =>
      handleCommand(
        handlerDeps,
        context,
        {
          ...commandSpec(id, command, options),
          follow: options.follow,
          ...(options.beforeRetry && { beforeRetry: options.beforeRetry }),
        },
        handlerOptions(options),
      ),
    decideOn(id, at, command, placement = 'after') {
      const events = decider.decide(command, at.state);
      return {
        state: evolveAll(decider, at.state, events),
        events,
        writes:
          events.length === 0
            ? []
            : [
                {
                  streamName: spec.stream(id),
                  event: events,
                  expectedVersion: expectedVersionOf(at.revision),
                  placement,
                },
              ],
      };
    },
    async decide(id, command, placement) {
      const at = await self.load(id);
      return self.decideOn(id, at, command(at.state), placement);
    },
  };
  return self;
}
