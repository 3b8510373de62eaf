/** Deterministic event ids: the same command retried appends events the store recognises as already written. */
import { hash } from 'node:crypto';

/** Namespace of this service's name-based (v5) UUIDs. */
const namespace = Buffer.from('6f1c2f0e8a4b4d1c9e2a7b3c5d6e7f80', 'hex');

/** The namespace followed by the name, written in place: ids are named in hot loops (flash-sale batches). */
const scratch = Buffer.allocUnsafe(4096);
namespace.copy(scratch, 0);
const variantDigits = '89ab';

/**
 * The same UUID (v5, RFC 9562) for the same name, so an event appended again
 * by a retry carries the id the store already holds.
 */
export function nameBasedUuid(name: string): string {
  // One-shot hash of a reused buffer, version and variant set in the hex: a Hash object and two buffers per id cost
  // about twice as much.
  // A UTF-16 unit is at most 3 bytes of UTF-8: a name that surely fits is written whole, never cut.
  const input =
    name.length * 3 <= scratch.length - namespace.length
      ? scratch.subarray(0, namespace.length + scratch.write(name, namespace.length, 'utf8'))
      : Buffer.concat([namespace, Buffer.from(name, 'utf8')]);
  const hex = hash('sha1', input, 'hex');
  const variant = variantDigits[Number.parseInt(hex[16]!, 16) & 3]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The id of the `index`-th event a command appends to its stream. */
export const commandEventId = (commandId: string, streamName: string, index: number): string =>
  nameBasedUuid(`${commandId}/${streamName}/${index}`);
