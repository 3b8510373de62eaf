/**
 * How far behind a projector is and how fast that closes, as its runner reports it at /ready and /metrics
 * (docs/projections.md, "Metrics"): the messages the bus holds for it, the age of the last event it applied, and the
 * rate at which the first fell over the last half minute.
 */
import { performance } from 'node:perf_hooks';
import type { Progress, Slot } from './projection-slots.js';

/** One look at a projector's lag. */
export interface Lag {
  /** Messages the bus holds for the projector that it has not settled; null when the bus did not answer. */
  events: number | null;
  /** Now minus the recorded time of the last applied event while events are pending; 0 when caught up. */
  seconds: number;
  /** Events per second the lag fell over the last window (negative: it grew); null until two looks tell. */
  closingPerSecond: number | null;
}

/** The lag of one projector over time: looks kept for `windowMs`. */
export class LagTrend {
  private readonly looks: { at: number; events: number }[] = [];

  constructor(private readonly windowMs = 30_000) {}

  /** Records the lag in events at `at` (ms) and answers how fast it closed since the oldest look of the window. */
  add(at: number, events: number): number | null {
    this.looks.push({ at, events });
    while (this.looks.length > 2 && at - this.looks[1]!.at >= this.windowMs) this.looks.shift();
    const first = this.looks[0]!;
    return at > first.at ? ((first.events - events) * 1000) / (at - first.at) : null;
  }
}

/**
 * The lag seen now, from the bus's count of pending messages and the projector's progress; `now` is the service's clock
 * (event times), the trend keeps the monotonic one.
 */
export function lagNow(pending: number | null, progress: Progress | undefined, now: Date, trend: LagTrend): Lag {
  const recordedAt = progress?.recordedAt ?? null;
  const seconds =
    pending !== null && pending > 0 && recordedAt !== null ? (now.getTime() - Date.parse(recordedAt)) / 1000 : 0;
  return {
    events: pending,
    seconds: Math.max(0, seconds),
    closingPerSecond: pending === null ? null : trend.add(performance.now(), pending),
  };
}

/**
 * How long the bus has to say what it holds. A broker that is away would have each look wait for the client's request
 * timeout (seconds), and the look is what reads the store meanwhile (projection-catch-up.ts, catchUpWhileBusAway).
 */
const answerWithinMs = 1000;

function withinMs<T>(answer: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  answer.catch(() => undefined); // answered late, after the race was lost
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * A projector's lag now, as its consumer's bus counts it, kept in the slot's trend. Further behind than `threshold`
 * (and not catching up already), its next batch first reads the event store (projection-catch-up.ts), where its
 * consumer can then be placed after the checkpoint (BusConsumer.reposition).
 */
export async function lookAtLag(
  slot: Slot,
  progress: Progress | undefined,
  now: Date,
  threshold: number,
): Promise<Lag> {
  const pending = slot.consumer ? await withinMs(slot.consumer.pending(), answerWithinMs).catch(() => null) : null;
  slot.lag ??= new LagTrend();
  // Only a consumer that can be placed after the checkpoint: the in-process bus reads the store by itself when behind.
  if (pending !== null && pending > threshold && !slot.catchingUp && slot.consumer?.reposition)
    slot.catchUpDue = pending;
  return lagNow(pending, progress, now, slot.lag);
}
