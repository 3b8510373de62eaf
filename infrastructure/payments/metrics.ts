/**
 * The payment hub's metrics (docs/ipn.md, "Operations"): its module lists them (context-module.ts, `metrics`) and the
 * composition root registers them in the process registry, with the shared ones of infrastructure/shared/metrics.ts.
 */
import { Counter, Gauge, Histogram } from 'prom-client';

export const ipnAttempts = new Counter({
  name: 'ipn_attempts_total',
  help: 'IPN POSTs this process made, by verdict (DELIVERED, RETRY, REJECTED, EXHAUSTED).',
  labelNames: ['verdict'],
  registers: [],
});

export const ipnAttemptDuration = new Histogram({
  name: 'ipn_attempt_duration_seconds',
  help: 'Time from an IPN POST to the end of its answer (or its timeout or error).',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  registers: [],
});

export const ipnNotifications = new Gauge({
  name: 'ipn_notifications',
  help: 'IPN notifications in the outbox by status (PENDING, REJECTED, EXHAUSTED: exhausted ones wait for an operator), as the ipn role last counted them.',
  labelNames: ['status'],
  registers: [],
});

/** Every metric of the hub, for its module. */
export const paymentsMetrics = [ipnAttempts, ipnAttemptDuration, ipnNotifications];
