/**
 * The IPN dispatcher as a background job of the `ipn` role (docs/ipn.md, "How it works"): polls the outbox every
 * PAYMENTS_IPN_POLL_MS (and again whenever a send ends), and keeps the notification gauges of /metrics.
 */
import type { IpnDispatcher, IpnOutbox } from '../../application/payments/index.js';
import type { Logger } from '../../application/shared/logger.js';
import type { BackgroundJob } from '../shared/context.js';
import { ipnNotifications } from '../shared/metrics.js';

export function ipnDispatcherJob(options: {
  dispatcher: IpnDispatcher;
  outbox: IpnOutbox;
  logger: Logger;
  pollMs: number;
  metricsIntervalMs?: number;
  onStop?: () => void;
}): BackgroundJob & { status(): Promise<Record<string, unknown>> } {
  const { dispatcher, outbox, logger } = options;
  let poll: NodeJS.Timeout | undefined;
  let metrics: NodeJS.Timeout | undefined;
  let counts: Record<string, number> | null = null;

  const refresh = async () => {
    counts = await outbox.countByStatus();
    for (const [status, n] of Object.entries(counts)) ipnNotifications.set({ status }, n);
  };
  const tick = () => dispatcher.pump().catch((err: unknown) => logger.error('IPN dispatcher poll failed', { err }));

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
