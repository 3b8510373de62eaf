import type { ExpectedVersion, StreamWrite } from '../../../application/shared/event-store.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertExpectedVersion(expected: ExpectedVersion): void {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return;
  if (!Number.isSafeInteger(expected) || expected < -1)
    throw new RangeError(`invalid expected version: ${String(expected)}`);
}

/** Rejects writes no adapter should attempt: caller bugs, not conflicts. */
export function assertValidWrites(writes: readonly StreamWrite[]): void {
  const ids = new Set<string>();
  for (const { streamName, events, expectedVersion } of writes) {
    if (typeof streamName !== 'string' || streamName.length === 0 || streamName.startsWith('$')) {
      throw new RangeError(`invalid stream name: ${JSON.stringify(streamName)}`);
    }
    assertExpectedVersion(expectedVersion);
    if (events.length === 0) throw new RangeError(`no events to append to ${streamName}`);
    for (const event of events) {
      if (!uuid.test(event.id)) throw new RangeError(`event id is not a UUID: ${JSON.stringify(event.id)}`);
      const id = event.id.toLowerCase();
      if (ids.has(id)) throw new RangeError(`event id ${id} appears twice in one append`);
      ids.add(id);
      if (typeof event.type !== 'string' || event.type.length === 0) throw new RangeError(`event ${id} has no type`);
      if (event.schemaVersion !== undefined && (!Number.isInteger(event.schemaVersion) || event.schemaVersion < 1)) {
        throw new RangeError(`event ${id} has an invalid schema version`);
      }
    }
  }
}

/** Whether an append with `expected` was valid at a stream whose last revision was `actual` (-1: no stream). */
export function expectedVersionHolds(expected: ExpectedVersion, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}
