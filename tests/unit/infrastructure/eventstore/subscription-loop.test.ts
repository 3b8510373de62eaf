import { expect } from 'chai';
import type { RecordedEvent, Subscription } from '../../../../application/shared/event-store.js';
import { formatPosition } from '../../../../infrastructure/shared/eventstore/positions.js';
import {
  pagedEvents,
  subscribeToSource,
  WakeUps,
  type EventSource,
} from '../../../../infrastructure/shared/eventstore/subscription-loop.js';
import { eventually } from '../../../support/eventually.js';

/** Events at positions 1..n of one stream. */
function log(n: number): RecordedEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `e${i + 1}`,
    streamName: 'pool-1',
    type: 'Happened',
    schemaVersion: 1,
    data: {},
    metadata: { occurredAt: '2026-03-01T10:00:00.000Z' },
    revision: i,
    position: formatPosition(1n, BigInt(i + 1)),
    recordedAt: '2026-03-01T10:00:00.000Z',
  }));
}

const quiet = { warn: () => undefined };

/** A live source stays open until the subscription stops. */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

describe('subscription loop (infrastructure/shared/eventstore/subscription-loop.ts)', () => {
  const subscriptions = new Set<Subscription>();
  afterEach(async () => {
    await Promise.all([...subscriptions].map((s) => s.stop()));
  });

  it('given a source that fails after two events, when it is opened again, then it starts at the last handled event and nothing is handled twice', async () => {
    const events = log(4);
    const openedAt: (string | null)[] = [];
    // Each opening replays from the start of the log (as a server that ignores the position would): the loop passes over what it handled.
    const source: EventSource = async function* (position, signal) {
      openedAt.push(position);
      yield events.slice(0, 2);
      if (openedAt.length === 1) throw new Error('connection dropped');
      yield events.slice(2);
      await stopped(signal);
    };
    const handled: string[] = [];

    subscribeToSource(subscriptions, source, null, async (e) => void handled.push(e.id), quiet);

    await eventually(() => expect(handled).to.deep.equal(['e1', 'e2', 'e3', 'e4']));
    expect(openedAt).to.deep.equal([null, events[1]!.position]);
  });

  it('given a checkpoint, when the source gives events at or before it, then only those after it are handled', async () => {
    const events = log(3);
    const source: EventSource = async function* (_position, signal) {
      yield events;
      await stopped(signal);
    };
    const handled: string[] = [];

    subscribeToSource(subscriptions, source, events[0]!.position, async (e) => void handled.push(e.id), quiet);

    await eventually(() => expect(handled).to.deep.equal(['e2', 'e3']));
  });

  it('given a paged log caught up, when the store rings its wake-ups, then the next page is read at once without a poll', async () => {
    const stored = log(1);
    const wakeUps = new WakeUps();
    const source = pagedEvents(async (after) => stored.filter((e) => after === null || e.position > after), {
      pageSize: 10,
      wakeUps,
    });
    const handled: string[] = [];
    subscribeToSource(subscriptions, source, null, async (e) => void handled.push(e.id), quiet);
    await eventually(() => expect(handled).to.deep.equal(['e1']));

    stored.push(...log(2).slice(1));
    wakeUps.ring();

    await eventually(() => expect(handled).to.deep.equal(['e1', 'e2']));
  });

  it('given a paged log, when stopped while caught up, then stop() returns and the wake-up is forgotten', async () => {
    const wakeUps = new WakeUps();
    let reads = 0;
    const source = pagedEvents(async () => (reads++, []), { pageSize: 10, wakeUps });
    const subscription = subscribeToSource(subscriptions, source, null, async () => undefined, quiet);
    await eventually(() => expect(reads).to.equal(1));

    await subscription.stop();
    wakeUps.ring();

    expect(reads).to.equal(1);
    expect(subscriptions.size).to.equal(0);
  });
});
