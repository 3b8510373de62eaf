/**
 * Stored events read as the domain's current types: one decoder per bounded context, built from its registry
 * (every event type with its current schema version and upcasters from each older one). The rule for changing
 * an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import type { DomainEvent } from './decider.js';

/** What a decoder reads: an event as stored (a RecordedEvent, a projected event, ...). */
export interface StoredEvent {
  readonly type: string;
  /** Absent: 1, as the event store defaults it. */
  readonly schemaVersion?: number;
  readonly data: unknown;
  readonly metadata?: { readonly [key: string]: unknown };
}

/**
 * Turns one type's data at version v into its data at v + 1. It gets the whole stored event too, for an upcaster
 * that needs more than the data (e.g. a field filled from metadata.occurredAt). Pure: no I/O, no clock.
 */
export type Upcaster = (data: never, event: StoredEvent) => unknown;

export interface EventSchema {
  /** The version writers stamp on new events: the shape the event's type declares now. 1 until it first changes. */
  readonly version: number;
  /** `upcasters[v]` turns version v into v + 1: one for every version from 1 to `version - 1`. */
  readonly upcasters?: Readonly<Record<number, Upcaster>>;
}

/** A context's registry: every event type of `E`, none missing, none extra. */
export type EventSchemas<E extends DomainEvent> = { readonly [T in E['type']]: EventSchema };

export interface EventDecoder<E extends DomainEvent> {
  /**
   * The event as the domain's current type: the same object when stored at the current version (a map lookup
   * and a compare, nothing copied or checked), else a copy with its data upcast step by step and
   * `schemaVersion` set to the current one. An unknown type or a version without a way to the current one
   * throws (UnknownEventTypeError, UnsupportedSchemaVersionError): never a guess.
   */
  decode<R extends StoredEvent>(event: R): R & E;
  /** Whether `type` is one of the decoder's. */
  has(type: string): type is E['type'];
  /** The version to stamp on a new event of `type` (EventToAppend.schemaVersion). */
  currentVersion(type: E['type']): number;
  /**
   * The same decoder restricted to the types that are keys of `types` (values ignored): for reading one stream
   * category, where an event of any other type is an error rather than something to skip.
   */
  only<T extends E['type']>(types: { readonly [K in T]: unknown }): EventDecoder<Extract<E, { type: T }>>;
}

/** A stored event the decoder cannot turn into a current domain event. */
export class EventDecodingError extends Error {
  constructor(
    readonly eventType: string,
    /** The stored event's version; undefined when a writer asked for a type's current version. */
    readonly schemaVersion: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'EventDecodingError';
  }
}

export class UnknownEventTypeError extends EventDecodingError {
  constructor(eventType: string, schemaVersion?: number) {
    const at = schemaVersion === undefined ? '' : ` at schema version ${schemaVersion}`;
    super(eventType, schemaVersion, `unknown event type ${eventType}${at}`);
    this.name = 'UnknownEventTypeError';
  }
}

/** A version newer than this code knows (written by a newer release), or one no upcaster starts from. */
export class UnsupportedSchemaVersionError extends EventDecodingError {
  constructor(
    eventType: string,
    schemaVersion: number,
    readonly currentVersion: number,
  ) {
    super(
      eventType,
      schemaVersion,
      `${eventType} at schema version ${schemaVersion} cannot be read: this code reads versions 1 to ${currentVersion}`,
    );
    this.name = 'UnsupportedSchemaVersionError';
  }
}

interface Entry {
  readonly version: number;
  /** `steps[v - 1]` turns version v into v + 1. */
  readonly steps: readonly ((data: unknown, event: StoredEvent) => unknown)[];
}

/** Builds a context's decoder; a registry with a missing upcaster or a bad version throws here, at start-up. */
export function eventDecoder<E extends DomainEvent>(schemas: EventSchemas<E>): EventDecoder<E> {
  const entries = new Map<string, Entry>();
  for (const [type, schema] of Object.entries<EventSchema>(schemas)) entries.set(type, entryOf(type, schema));
  return decoderOver<E>(entries);
}

function entryOf(type: string, { version, upcasters = {} }: EventSchema): Entry {
  if (!Number.isInteger(version) || version < 1) throw new Error(`${type}: schema version must be 1 or more`);
  const steps = [];
  for (let from = 1; from < version; from++) {
    const step = upcasters[from];
    if (typeof step !== 'function') throw new Error(`${type}: no upcaster from version ${from} to ${from + 1}`);
    steps.push(step as (data: unknown, event: StoredEvent) => unknown);
  }
  const extra = Object.keys(upcasters).filter((from) => !(Number(from) >= 1 && Number(from) < version));
  if (extra.length > 0)
    throw new Error(`${type}: upcasters from ${extra.join(', ')} do not lead to version ${version}`);
  return { version, steps };
}

function decoderOver<E extends DomainEvent>(entries: ReadonlyMap<string, Entry>): EventDecoder<E> {
  const entryFor = (type: string, schemaVersion?: number): Entry => {
    const entry = entries.get(type);
    if (entry === undefined) throw new UnknownEventTypeError(type, schemaVersion);
    return entry;
  };
  return {
    decode<R extends StoredEvent>(event: R): R & E {
      const version = event.schemaVersion ?? 1;
      const entry = entryFor(event.type, version);
      if (version === entry.version) return event as R & E;
      return upcast(event, version, entry) as R & E;
    },
    has: (type: string): type is E['type'] => entries.has(type),
    currentVersion: (type) => entryFor(type).version,
    only<T extends E['type']>(types: { readonly [K in T]: unknown }) {
      const kept = new Map<string, Entry>();
      for (const type of Object.keys(types)) kept.set(type, entryFor(type));
      return decoderOver<Extract<E, { type: T }>>(kept);
    },
  };
}

function upcast<R extends StoredEvent>(event: R, version: number, entry: Entry): R {
  if (!Number.isInteger(version) || version < 1 || version > entry.version)
    throw new UnsupportedSchemaVersionError(event.type, version, entry.version);
  let data = event.data;
  for (let from = version; from < entry.version; from++) data = entry.steps[from - 1]!(data, event);
  return { ...event, schemaVersion: entry.version, data };
}
