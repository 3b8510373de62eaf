import type { RecordedEvent, Subscription } from '../../../application/shared/event-store.js';
import { pause } from '../pause.js';

export interface SubscriptionLogger {
  warn(message: string, meta?: object): void;
}

/** Growing pause between attempts: 100 ms doubling up to 5 s. */
export function backoff(attempt: number): number {
  return Math.min(100 * 2 ** attempt, 5000);
}

/**
 * Gives one event to a subscription's handler until it succeeds, so a failing
 * handler never makes the subscription skip an event. Returns false when the
 * subscription was stopped before the event was handled.
 */
export async function handOver(
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
export function trackSubscription(
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
