/**
 * npm run bench:ipn — the IPN dispatcher (docs/ipn.md, "Benchmark"): N completed payments appended at RATE per second
 * for MERCHANTS healthy merchants and one dead one (its postback port refuses connections; DEAD_SHARE of the
 * payments are its), all through the ipn role (relay, outbox projector, dispatcher) of one process. The healthy
 * receivers (node:http, a process of their own: bench/ipn-receiver.ts) answer 5xx 10 % of the time and hang past the
 * shortened timeout (TIMEOUT_MS) 1 % of the time. Measured: first_attempt_p99_ms, the p99 of a first POST's duration
 * as the dispatcher recorded it (hangs excluded: they end at the timeout by design); healthy_merchant_delay_p99_ms,
 * the p99 from a healthy merchant's notification entering the outbox to its first POST arriving, while the dead
 * merchant's queue grows (the dispatcher's part; the line before the last also gives the whole way from the append,
 * relay and outbox projector included, and each part); deliveries_per_s, healthy notifications delivered per second
 * of the run, retries' tail included. lost: healthy notifications not DELIVERED when all settled;
 * duplicates_beyond_retries: POSTs a receiver got twice for the same attempt (notification id and attempt number); a
 * retry after a timeout the receiver had in fact answered is the at-least-once the seed allows, not counted. Last line:
 * ipn: sent=<n> delivered=<d> lost=0 duplicates_beyond_retries=<k> deliveries_per_s=<x> first_attempt_p99_ms=<y> healthy_merchant_delay_p99_ms=<z>
 *
 * Env: N (20000), RATE (600), MERCHANTS (20), DEAD_SHARE (0.05), TIMEOUT_MS (300), DATABASE_URL (else embedded).
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { newCommandContext } from '../application/shared/command-context.js';
import { buildContainer, loadConfig } from '../container.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { benchSecrets } from './bench-secrets.js';
import { createBenchDatabase } from './database.js';
import { benchGatewayEnvironment } from './gateway-party.js';
import { benchSettings, localReceiverEgress } from './bench-settings.js';
import { percentile } from './load.js';
import { transactionEvents } from '../tests/support/ipn.js';

const n = Number(process.env.N ?? 20_000);
const rate = Number(process.env.RATE ?? 600);
const merchantCount = Number(process.env.MERCHANTS ?? 20);
const deadShare = Number(process.env.DEAD_SHARE ?? 0.05);
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 300);

async function main(): Promise<void> {
  const db = await createBenchDatabase('bench_ipn');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    ROLES: 'relay,ipn',
    GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
    ...benchSettings,
    PAYMENTS_IPN_TIMEOUT_MS: String(timeoutMs),
    PAYMENTS_IPN_FIRST_RETRY_MS: '500',
    PAYMENTS_IPN_CONCURRENCY: '200',
    PAYMENTS_IPN_PER_MERCHANT: '16',
    PAYMENTS_IPN_POLL_MS: '20',
  });
  const c = await buildContainer({
    config,
    databaseUrl: db.url,
    secrets: benchSecrets(),
    logger: createLogger('error'),
    // The receiver runs on this machine over plain http, which production's egress policy refuses.
    egress: localReceiverEgress,
  });

  // The healthy merchants' receivers, in their own process (bench/ipn-receiver.ts).
  const origin = Date.now();
  const receiver = fork(fileURLToPath(new URL('./ipn-receiver.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ORIGIN_MS: String(origin) },
  });
  const port = await new Promise<number>((resolve) =>
    receiver.once('message', (m) => resolve((m as { port: number }).port)),
  );
  // The dead merchant: a port that was listening and is closed now (connection refused).
  const gone = http.createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const deadPort = (gone.address() as AddressInfo).port;
  await new Promise<void>((resolve) => gone.close(() => resolve()));

  const { onboarding } = c.services.payments;
  const asBench = () => newCommandContext({ actor: { operator: 'bench' } });
  const merchants = Array.from({ length: merchantCount }, (_, i) => `bench-ipn-${i}`);
  for (const m of merchants)
    await onboarding.onboard(asBench(), {
      merchantCode: m,
      name: m,
      ipnUrl: `http://127.0.0.1:${port}/ipn`,
      maxIpnRetries: 10,
    });
  await onboarding.onboard(asBench(), {
    merchantCode: 'bench-ipn-dead',
    name: 'dead',
    ipnUrl: `http://127.0.0.1:${deadPort}/ipn`,
    maxIpnRetries: 10,
  });
  await c.startBackground();

  const appendedAt = new Map<string, number>();
  const healthy = new Set<string>();
  const started = performance.now();
  const batch = Math.max(1, Math.round(rate / 20));
  for (let i = 0; i < n; i += batch) {
    const due = started + (i / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const writes = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      const dead = Math.random() < deadShare;
      const merchantCode = dead ? 'bench-ipn-dead' : merchants[j % merchants.length]!;
      const transactionId = randomUUID();
      if (!dead) healthy.add(transactionId);
      writes.push({
        streamName: `transaction-${transactionId}`,
        expectedVersion: 'no_stream' as const,
        events: transactionEvents(transactionId, merchantCode, `BENCH-${j}`),
      });
      appendedAt.set(transactionId, Date.now() - origin);
    }
    await c.store.appendMany(writes);
  }

  // Settled: every healthy notification delivered (or a deadline: what is left is lost).
  const deadline = Date.now() + 120_000 + (n / rate) * 1000;
  let deliveredCount = 0;
  let lastDelivery = performance.now();
  for (;;) {
    const [{ d }] = (await c
      .knex('payments_ipn_notifications')
      .whereNot('merchant_code', 'bench-ipn-dead')
      .where({ status: 'DELIVERED' })
      .count({ d: '*' })) as { d: string }[];
    if (Number(d) > deliveredCount) lastDelivery = performance.now();
    deliveredCount = Number(d);
    if (deliveredCount >= healthy.size || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const [{ s }] = (await c.knex('payments_ipn_notifications').count({ s: '*' })) as { s: string }[];
  const [{ q }] = (await c
    .knex('payments_ipn_notifications')
    .where({ merchant_code: 'bench-ipn-dead', status: 'PENDING' })
    .count({ q: '*' })) as { q: string }[];
  const firstLatencies = (
    (await c
      .knex('payments_ipn_attempts')
      .where({ attempt_no: 1 })
      .whereNot('merchant_code', 'bench-ipn-dead')
      .whereNotNull('http_status')
      .select('latency_ms')) as { latency_ms: number }[]
  ).map((r) => r.latency_ms);
  const lag = (await c.knex.raw(
    `SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM a.started_at - n.created_at) * 1000) AS claim_p99
     FROM payments_ipn_attempts a JOIN payments_ipn_notifications n USING (notification_id) WHERE a.attempt_no = 1`,
  )) as { rows: { claim_p99: number }[] };
  const report = await new Promise<{ firstArrival: Record<string, number>; duplicates: number }>((resolve) => {
    receiver.once('message', (m) => resolve(m as { firstArrival: Record<string, number>; duplicates: number }));
    receiver.send('report');
  });
  const firstArrival = new Map(Object.entries(report.firstArrival));
  const duplicates = report.duplicates;
  const created = (await c.knex('payments_ipn_notifications').select('transaction_id', 'created_at')) as {
    transaction_id: string;
    created_at: Date;
  }[];
  const createdAt = new Map(created.map((r) => [r.transaction_id, r.created_at.getTime() - origin]));
  const arrived = [...healthy].filter((t) => firstArrival.has(t) && createdAt.has(t));
  const outboxLag = arrived.map((t) => createdAt.get(t)! - appendedAt.get(t)!);
  const endToEnd = arrived.map((t) => firstArrival.get(t)! - appendedAt.get(t)!);
  const delays = arrived.map((t) => firstArrival.get(t)! - createdAt.get(t)!);
  const seconds = (lastDelivery - started) / 1000;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `healthy=${healthy.size} dead_queue_pending=${q} duration_s=${seconds.toFixed(1)} load_avg=${load} cpus=${os.cpus().length} appended_to_outbox_p99_ms=${Math.round(percentile(outboxLag, 99))} appended_to_first_arrival_p99_ms=${Math.round(percentile(endToEnd, 99))} outbox_to_first_claim_p99_ms=${Math.round(lag.rows[0]!.claim_p99)}`,
  );
  console.log(
    `ipn: sent=${s} delivered=${deliveredCount} lost=${healthy.size - deliveredCount} duplicates_beyond_retries=${duplicates} deliveries_per_s=${Math.round(deliveredCount / seconds)} first_attempt_p99_ms=${Math.round(percentile(firstLatencies, 99))} healthy_merchant_delay_p99_ms=${Math.round(percentile(delays, 99))}`,
  );
  await c.stop();
  await db.drop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
