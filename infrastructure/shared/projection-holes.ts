/**
 * Holes in what the bus delivered to a projector (docs/projections.md, "Recovery": a frozen lease holder). The relay
 * publishes every event of the log to one stream, in order, and a projector's consumer receives every message of it,
 * so the stream sequences a holder receives follow one another. A sequence that does not follow the last applied one
 * means the bus gave messages to someone else (a frozen holder's outstanding pull, a stream recreated empty): the
 * events between the checkpoint and the next message are then read from the event store, the archive, and applied
 * before it. Where the sequence follows, nothing is read; after a takeover, the first batch is checked once.
 */
import type { BusMessage } from '../../application/shared/event-bus.js';
import type { EventStore, RecordedEvent } from '../../application/shared/event-store.js';

export interface Hole {
  /** Index in the batch of the first message the missing events come before. */
  index: number;
  /** The events of the store after the checkpoint and before that message, in order. */
  missing: RecordedEvent[];
}

/**
 * The first hole of a batch, or undefined. `position` is the projector's checkpoint; `sequence` the stream sequence of
 * the last message it applied (undefined when unknown, as after a takeover). Messages at or before the checkpoint
 * (redeliveries) are passed over. A bus without sequences (the in-process bus reads the store itself) has no holes.
 *
 * A consumer given one context's events only (docs/projections.md, "Buses") has sequences with gaps (the other
 * contexts' messages): there a message's `follows`, the position of its context's event before it, tells that
 * nothing was missed when the checkpoint is at or after it. A message without one (the first a relay published after
 * it started) is checked against the store. Only events the projector `handles` are missing: the others would only
 * move its checkpoint, which the next message moves anyway.
 */
export async function firstHole(
  store: Pick<EventStore, 'readAll'>,
  position: string | null,
  sequence: number | undefined,
  messages: readonly BusMessage[],
  handles: ReadonlySet<string>,
  pageSize = 1000,
): Promise<Hole | undefined> {
  for (const [index, message] of messages.entries()) {
    if (position !== null && message.event.position <= position) continue;
    if (message.sequence === undefined) return undefined;
    const { follows } = message;
    const followsOn =
      follows !== undefined
        ? position !== null && follows <= position
        : sequence !== undefined && message.sequence === sequence + 1;
    if (!followsOn) {
      const missing = await eventsBetween(store, position, message.event.position, handles, pageSize);
      if (missing.length > 0) return { index, missing };
    }
    position = message.event.position;
    sequence = message.sequence;
  }
  return undefined;
}

/** The store's events of these types after `after` (null: from the start) and before `before`, in order. */
async function eventsBetween(
  store: Pick<EventStore, 'readAll'>,
  after: string | null,
  before: string,
  types: ReadonlySet<string>,
  pageSize: number,
): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  for (let from = after; ;) {
    const page = await store.readAll(from, pageSize, { types });
    for (const event of page) {
      if (event.position >= before) return found;
      found.push(event);
    }
    if (page.length < pageSize) return found;
    from = page[page.length - 1]!.position;
  }
}
