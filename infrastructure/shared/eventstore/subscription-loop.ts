/**
 * The one delivery loop behind every adapter's `subscribeToAll` (the port's contract in
 * application/shared/event-store.ts; docs/event-store.md, "Subscriptions"): events after the checkpoint, in log
 * order, one at a time, the handler awaited (and a failed event handed over again, never skipped), stop() waiting for
 * the handler in progress. An adapter gives only its source of events: PostgreSQL and the in-memory store read pages
 * of their log and wait for more (`pagedEvents`), EventStoreDB opens a server-side catch-up subscription. When the
 * source fails, the loop waits a growing pause and opens it again from the last handled event.
 */
import type { RecordedEvent, Subscription } from '../../../application/shared/event-store.js';
import { pause } from '../pause.js';

export interface SubscriptionLogger {
  warn(message: string, meta?: object): void;
}

/**
 * Events after `position` (null: from the start), in log order, as the adapter receives them: a page at a time (an
 * empty page says the source answered and had nothing yet). It ends when `signal` aborts; it throws when it cannot
 * read, and is opened again from the last handled event. The loop passes over anything at or before `position`.
 */
export type EventSource = (position: string | null, signal: AbortSignal) => AsyncIterable<readonly RecordedEvent[]>;

/** Growing pause between attempts: 100 ms doubling up to 5 s. */
export function backoff(attempt: number): number {
  return Math.min(100 * 2 ** attempt, 5000);
}

/**
 * Subscribes `handler` to `source` from `checkpoint`, tracked in `subscriptions` (the adapter's close() stops them):
 * the port's subscribeToAll for any adapter.
 */
export function subscribeToSource(
  subscriptions: Set<Subscription>,
  source: EventSource,
  checkpoint: string | null,
  handler: (event: RecordedEvent) => Promise<void>,
  logger: SubscriptionLogger,
): Subscription {
  return trackSubscription(subscriptions, async (signal) => {
    let position = checkpoint;
    let failures = 0;
    while (!signal.aborted) {
      try {
        for await (const page of source(position, signal)) {
          failures = 0;
          for (const event of page) {
            if (position !== null && event.position <= position) continue;
            if (!(await handOver(event, handler, signal, logger))) return;
            position = event.position;
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        logger.warn('event store subscription cannot read the log; opening it again from the last handled event', {
          position,
          attempt: failures + 1,
          error: String(error),
        });
        await pause(backoff(failures++), signal);
      }
    }
  });
}

/**
 * A source over a log read in pages: reads a page after the last event read, and after a short page (caught up) waits
 * for `wakeUps` to ring (an append through the same store) or `pollIntervalMs` (undefined: no poll, only a ring).
 * The wake-up is armed before each read, so an append that lands between the read and the wait is not missed.
 */
export function pagedEvents(
  readPage: (after: string | null, limit: number) => Promise<readonly RecordedEvent[]>,
  options: { pageSize: number; wakeUps: WakeUps; pollIntervalMs?: number },
): EventSource {
  return async function* (position, signal) {
    const wakeUp = options.wakeUps.watch();
    try {
      let after = position;
      while (!signal.aborted) {
        wakeUp.reset();
        const page = await readPage(after, options.pageSize);
        if (page.length > 0) after = page[page.length - 1]!.position;
        yield page;
        if (page.length < options.pageSize) await wakeUp.wait(options.pollIntervalMs, signal);
      }
    } finally {
      options.wakeUps.forget(wakeUp);
    }
  };
}

/** The caught-up readers of one store, rung by its appends. */
export class WakeUps {
  private readonly watching = new Set<WakeUp>();

  watch(): WakeUp {
    const wakeUp = new WakeUp();
    this.watching.add(wakeUp);
    return wakeUp;
  }

  forget(wakeUp: WakeUp): void {
    this.watching.delete(wakeUp);
  }

  ring(): void {
    for (const wakeUp of this.watching) wakeUp.ring();
  }
}

/** A wake-up call that is not lost when it rings before anyone waits. */
export class WakeUp {
  private rung = false;
  private waiting: AbortController | undefined;

  ring(): void {
    this.rung = true;
    this.waiting?.abort();
  }

  reset(): void {
    this.rung = false;
  }

  /** Returns when rung (or already rung since the last reset), after `timeoutMs` if given, or when `signal` aborts. */
  async wait(timeoutMs: number | undefined, signal: AbortSignal): Promise<void> {
    if (this.rung || signal.aborted) return;
    const waiting = new AbortController();
    const forward = () => waiting.abort();
    signal.addEventListener('abort', forward, { once: true });
    this.waiting = waiting;
    await (timeoutMs === undefined ? aborted(waiting.signal) : pause(timeoutMs, waiting.signal));
    this.waiting = undefined;
    signal.removeEventListener('abort', forward);
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Gives one event to a subscription's handler until it succeeds, so a failing
 * handler never makes the subscription skip an event. Returns false when the
 * subscription was stopped before the event was handled.
 */
async function handOver(
  event: RecordedEvent,
  handler: (event: RecordedEvent) => Promise<void>,
  signal: AbortSignal,
  logger: SubscriptionLogger,
): Promise<boolean> {
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      await handler(event);
      return true;
    } catch (error) {
      logger.warn('event store subscriber failed; handing the event over again', {
        eventId: event.id,
        position: event.position,
        attempt: attempt + 1,
        error: error instanceof Error ? error.message : String(error),
      });
      await pause(backoff(attempt), signal);
    }
  }
  return false;
}

/** Starts a subscription's delivery loop; stop() aborts it, waits for it and forgets it. */
function trackSubscription(
  subscriptions: Set<Subscription>,
  run: (signal: AbortSignal) => Promise<void>,
): Subscription {
  const controller = new AbortController();
  const running = run(controller.signal);
  const subscription: Subscription = {
    stop: async () => {
      controller.abort();
      await running;
      subscriptions.delete(subscription);
    },
  };
  subscriptions.add(subscription);
  return subscription;
}
