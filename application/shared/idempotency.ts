/**
 * Idempotency keys for the command handler (docs/event-store.md, "Idempotency keys"). A command given a key claims the
 * key's guard stream in the same append as its events, recording the request's hash and where its events went. A
 * resend with the same hash is answered from those events (the first answer, not the current state); another request
 * under a used key is refused with IDEMPOTENCY_KEY_REUSED. Streams are never deleted, so a key is honoured for as
 * long as a client may retry.
 */
import { createHash } from 'node:crypto';
import type { DomainEvent } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';
import { eventDecoder } from '../../domain/shared/event-decoder.js';
import type { IdempotencyKey } from './command-context.js';
import { commandEventId } from './event-ids.js';
import type { EventStore, RecordedEvent } from './event-store.js';

/** What request hashes are taken over (api/shared/command-context.ts): the same for the same content, whatever its keys' order. */
export { canonicalJson } from '../../domain/shared/canonical-json.js';

/** The error code of a used key sent with another request; each interface maps it in its error table. */
export type IdempotencyErrorCode = 'IDEMPOTENCY_KEY_REUSED';

export function idempotencyKeyReused(key: IdempotencyKey): DomainError<IdempotencyErrorCode> {
  return new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    `idempotency key ${key.key} was used for another request; send a new key for a new request`,
    { key: key.key },
  );
}

/** One stream per scope and key; hashed, so any key makes a short, safe stream name. */
export const idempotencyStream = (key: Pick<IdempotencyKey, 'scope' | 'key'>): string =>
  `idempotency-${createHash('sha256').update(`${key.scope}\n${key.key}`, 'utf8').digest('hex')}`;

export type IdempotencyKeyUsed = DomainEvent<
  'IdempotencyKeyUsed',
  {
    scope: string;
    key: string;
    requestHash: string;
    commandId: string;
    /** Where the command's events went: `count` events of `streamName` from `fromRevision` (count 0: it decided none). */
    streamName: string;
    fromRevision: number;
    count: number;
    usedAt: string;
  }
>;

/** The key streams hold only this shared event type: its own decoder, so it is versioned like every event. */
const idempotencyDecoder = eventDecoder<IdempotencyKeyUsed>({ IdempotencyKeyUsed: { version: 1 } });

/** The schema version IdempotencyKeyUsed records are written with. */
export const idempotencyKeyUsedVersion = idempotencyDecoder.currentVersion('IdempotencyKeyUsed');

export interface IdempotencyRecord {
  /** The record's event (its id tells this command's own record from another's). */
  recorded: RecordedEvent;
  used: IdempotencyKeyUsed['data'];
}

/** The key's record, if it was used. */
export async function findIdempotencyRecord(
  store: EventStore,
  key: IdempotencyKey,
): Promise<IdempotencyRecord | undefined> {
  const recorded = (await store.readStream(idempotencyStream(key))).at(-1);
  return recorded && { recorded, used: idempotencyDecoder.decode(recorded).data };
}

/**
 * The recorded command's stream up to and including its events, or undefined when those events are not there: the
 * record was written but its command's events never were (a partial write on a store without multi-stream
 * transactions: the record goes first), and the key is free to be claimed again.
 */
export async function recordedHistory(
  store: EventStore,
  used: IdempotencyKeyUsed['data'],
): Promise<RecordedEvent[] | undefined> {
  const events = await store.readStream(used.streamName);
  const end = used.fromRevision + used.count;
  if (events.length < end) return undefined;
  for (let i = 0; i < used.count; i++) {
    if (events[used.fromRevision + i]!.id !== commandEventId(used.commandId, used.streamName, i)) return undefined;
  }
  return events.slice(0, end);
}
