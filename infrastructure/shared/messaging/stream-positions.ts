/**
 * Where an event-store position is in the JetStream stream (docs/projections.md, "Where a consumer starts"): a
 * consumer is created again right after the message of its checkpoint's position, not where a broker-side counter
 * says. The relay keeps the stream the log's prefix in log order, so positions grow with stream sequences and a
 * binary search over the messages' position headers finds it.
 */
import type { JetStreamManager } from '@nats-io/jetstream';

/** The header holding each message's event position (every message the relay publishes has it). */
export const positionHeader = 'Event-Position';

/**
 * The sequence of the stream's last message whose event is at or before `position` (0: none is), or undefined when
 * the stream cannot tell (a message without a position header). A message removed from the stream's middle (by hand:
 * the relay and the stream's limits remove none) is passed over by reading the next one.
 */
export async function lastSequenceAtOrBefore(
  jsm: JetStreamManager,
  stream: string,
  position: string,
): Promise<number | undefined> {
  const { state } = await jsm.streams.info(stream);
  let found = 0;
  let low = state.first_seq;
  let high = state.last_seq;
  while (state.messages > 0 && low <= high) {
    const middle = low + Math.floor((high - low) / 2);
    let message = null;
    for (let seq = middle; !message && seq <= high; seq++) message = await jsm.streams.getMessage(stream, { seq });
    if (!message) {
      high = middle - 1;
      continue;
    }
    const at = message.header.get(positionHeader);
    if (!at) return undefined;
    if (at <= position) {
      found = message.seq;
      low = message.seq + 1;
    } else high = middle - 1;
  }
  return found;
}
