/**
 * The IPN dispatcher as a background job of the `ipn` role (docs/ipn.md, "How it works"): polls the outbox every
 * PAYMENTS_IPN_POLL_MS (and again whenever a send ends), keeps the notification gauges of /metrics, and ends at once
 * the leases of dispatchers of this host that died (ownerIsGone).
 */
import type { IpnDispatcher, IpnOutbox } from '../../application/payments/index.js';
import type { Logger } from '../../application/shared/logger.js';
import type { Clock } from '../../application/shared/clock.js';
import type { BackgroundJob } from '../shared/context.js';
import { ownerIsGone } from '../shared/messaging/lease.js';
import { ipnNotifications } from './metrics.js';

export function ipnDispatcherJob(options: {
  dispatcher: IpnDispatcher;
  outbox: IpnOutbox;
  logger: Logger;
  clock: Clock;
  pollMs: number;
  metricsIntervalMs?: number;
  onStop?: () => void;
}): BackgroundJob & { status(): Promise<Record<string, unknown>> } {
  const { dispatcher, outbox, logger } = options;
  let poll: NodeJS.Timeout | undefined;
  let metrics: NodeJS.Timeout | undefined;
  let counts: Record<string, number> | null = null;

  const tick = () => dispatcher.pump().catch((err: unknown) => logger.error('IPN dispatcher poll failed', { err }));

  const refresh = async () => {
    // A dispatcher of this host killed mid-request (kill -9) would hold its notifications until their leases end
    // (timeout + 10 s): its leases are ended at once, and the next claim marks its attempts INTERRUPTED.
    const now = options.clock.now();
    const gone = (await outbox.leaseHolders(now)).filter(ownerIsGone);
    if (gone.length > 0) {
      const taken = await outbox.expireLeases(gone, now);
      logger.warn('IPN leases of dead dispatchers ended', { owners: gone, notifications: taken });
      void tick();
    }
    counts = await outbox.countByStatus();
    for (const [status, n] of Object.entries(counts)) ipnNotifications.set({ status }, n);
  };
  return {
    name: 'payments-ipn-dispatcher',
    role: 'ipn',
    start() {
      dispatcher.start();
      poll = setInterval(() => void tick(), options.pollMs);
      poll.unref();
      metrics = setInterval(
        () => void refresh().catch((err: unknown) => logger.warn('IPN metrics refresh failed', { err })),
        options.metricsIntervalMs ?? 5_000,
      );
      metrics.unref();
      void tick();
      void refresh().catch(() => undefined);
    },
    async stop() {
      clearInterval(poll);
      clearInterval(metrics);
      await dispatcher.stop();
      options.onStop?.();
    },
    async status() {
      return { sending: dispatcher.sending, notifications: counts };
    },
  };
}
