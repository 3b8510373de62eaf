import { createHash } from 'node:crypto';
import { fold, type Decider, type DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';
import { WrongExpectedVersionError, type EventMetadata, type EventStore, type ExpectedVersion } from './event-store.js';

/** Namespace of this service's name-based (v5) UUIDs. */
const namespace = Buffer.from('6f1c2f0e8a4b4d1c9e2a7b3c5d6e7f80', 'hex');

/**
 * The same UUID (v5, RFC 9562) for the same name, so an event appended again
 * by a retry carries the id the store already holds.
 */
export function nameBasedUuid(name: string): string {
  const b = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The expected version that says "the stream is still at `revision`" (-1: absent). */
export function expectedVersionOf(revision: number): ExpectedVersion {
  return revision < 0 ? 'no_stream' : revision;
}

/** An aggregate's state as of `revision`, the revision of its last event (-1: no stream). */
export interface Loaded<S> {
  state: S;
  revision: number;
}

/** Folds a stream's events, read through the context's decoder (upcast to their current shapes), into state. */
export async function loadAggregate<S, E extends DomainEvent>(
  store: EventStore,
  decider: Pick<Decider<unknown, S, E>, 'evolve' | 'initialState'>,
  decoder: EventDecoder<E>,
  streamName: string,
): Promise<Loaded<S>> {
  const events = await store.readStream(streamName);
  return {
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
  decider: Pick<Decider<unknown, S, E>, 'evolve'>,
  decoder: EventDecoder<E>,
  streamName: string,
  loaded: Loaded<S>,
): Promise<Loaded<S>> {
  const events = await store.readStream(streamName, { fromRevision: loaded.revision + 1 });
  if (events.length === 0) return loaded;
  return {
    state: events.reduce((s, e) => decider.evolve(s, decoder.decode(e)), loaded.state),
    revision: events[events.length - 1]!.revision,
  };
}

export interface CommandContext {
  /** Names this command; event ids derive from it, so the same command retried yields the same ids. */
  commandId: string;
  metadata: EventMetadata;
}

export interface CommandResult<S, E> {
  /** State after the events (unchanged when none were decided). */
  state: S;
  revision: number;
  events: E[];
}

export interface CommandHandlerOptions {
  /** Attempts in all, counting the first, when other writers keep moving the stream. Default 5. */
  maxAttempts?: number;
}

/**
 * Load, decide, append, for one stream: the stream is read through the
 * context's decoder, the command decided against its state and the events
 * appended (stamped with their current schema versions) with the revision read
 * as expected version. When another writer got there first, the whole cycle
 * runs again on fresh state, at most `maxAttempts` times; then the
 * WrongExpectedVersionError is thrown. Domain errors propagate at once.
 * `command` may be a function of the state, for commands that need it.
 */
export async function handleCommand<C, S, E extends DomainEvent>(
  store: EventStore,
  decider: Decider<C, S, E>,
  decoder: EventDecoder<E>,
  streamName: string,
  command: C | ((state: S) => C),
  context: CommandContext,
  options: CommandHandlerOptions = {},
): Promise<CommandResult<S, E>> {
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadAggregate(store, decider, decoder, streamName);
    const events = decider.decide(typeof command === 'function' ? (command as (state: S) => C)(state) : command, state);
    if (events.length === 0) return { state, revision, events };
    try {
      const result = await store.append(
        streamName,
        events.map((e, i) => ({
          id: nameBasedUuid(`${context.commandId}/${streamName}/${i}`),
          type: e.type,
          schemaVersion: decoder.currentVersion(e.type),
          data: e.data,
          metadata: context.metadata,
        })),
        expectedVersionOf(revision),
      );
      return { state: events.reduce(decider.evolve, state), revision: result.nextExpectedVersion, events };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
    }
  }
}
