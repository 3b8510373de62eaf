/** Deterministic event ids: the same command retried appends events the store recognises as already written. */
import { createHash } from 'node:crypto';

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

/** The id of the `index`-th event a command appends to its stream. */
export const commandEventId = (commandId: string, streamName: string, index: number): string =>
  nameBasedUuid(`${commandId}/${streamName}/${index}`);
