/**
 * npm run bench:orders — the central order view over real HTTP (docs/orders-read-models.md, "Benchmark"):
 * 1. HISTORY orders bulk-loaded into the read model through the projector (orders-history.ts);
 * 2. WEBHOOKS signed created/updated/cancelled webhooks of MERCHANTS merchants (5% repeats, 5% out of order;
 *    orders-webhooks.ts) over CONNECTIONS keep-alive connections, as fast as the service answers, behind the gateway
 *    with each merchant's X-API-Key, after an uncounted warm-up of WARM_UP;
 * 3. lost: every distinct webhook answered 200 must be in the read model (its history row, its order's row) once the
 *    projector has caught up — through NATS when NATS_URL is set (relay and projectors in a process of their own, as
 *    deployed), else on the in-process bus;
 * 4. QUERIES my-orders requests (customers' real access tokens) and QUERIES portal listings with counts (operator
 *    token), at the history's size: back to back over QUERY_CONNECTIONS (the capacity), then paced by QUERY_USERS
 *    users at QUERY_RATE requests/s, or unset at QUERY_LOAD (half) of that capacity (the latency on the last line).
 * Last line: orders: webhooks=<n> ingest_per_s=<x> webhook_p99_ms=<y> lost=<k> my_orders_p95_ms=<z> portal_p95_ms=<w>
 *
 * Env: WEBHOOKS (5000), MERCHANTS (20), CONNECTIONS (16), WARM_UP (600), HISTORY (20000), HISTORY_BATCH (5000),
 * QUERIES (1000), QUERY_CONNECTIONS (4), QUERY_RATE (unset), QUERY_LOAD (0.5), QUERY_USERS (16), CATCH_UP_SECONDS
 * (300), DATABASE_URL (else embedded), NATS_URL (optional), KEEP_DATABASE (set: the database is kept for EXPLAIN
 * ANALYZE, its URL printed; needs DATABASE_URL), CPU_PROFILE_DIR (the api's CPU profiles of the webhooks,
 * orders-webhooks.cpuprofile, and of the queries, orders-my-orders and orders-portal, and the roles' process's for its
 * whole life).
 */
import os from 'node:os';
import { listen } from '../api/shared/http-app.js';
import { newCommandContext } from '../application/shared/command-context.js';
import { buildContainer } from '../container.js';
import { startBenchDeployment } from './deployment.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { orderTables } from '../projections/orders/index.js';
import { profileCpu } from './cpu-profile.js';
import { measureCpu } from './cpu-use.js';
import { createBenchDatabase } from './database.js';
import { registerBenchParty } from './gateway-party.js';
import { loadInOwnProcess } from './load-process.js';
import { paced, percentile, type LoadRequest, type LoadResult } from './load.js';
import { bulkLoadHistory, type HistoryShape } from './orders-history.js';
import { customerTokens, myOrdersRequests, portalRequests, sampledCustomers } from './orders-queries.js';
import { planWebhooks, type BenchMerchant, type PlannedWebhook } from './orders-webhooks.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const webhooks = env('WEBHOOKS', 5000);
const merchantCount = env('MERCHANTS', 20);
const connections = env('CONNECTIONS', 16);
const warmUp = env('WARM_UP', 600);
const historySize = env('HISTORY', 20_000);
const historyBatch = env('HISTORY_BATCH', 5000);
const queries = env('QUERIES', 1000);
const queryConnections = env('QUERY_CONNECTIONS', 4);
/** Requests/s of the paced pass; unset, half the capacity the back-to-back pass measured (QUERY_LOAD, 0.5). */
const queryRate = process.env.QUERY_RATE === undefined ? undefined : Number(process.env.QUERY_RATE);
const queryLoad = env('QUERY_LOAD', 0.5);
const queryUsers = env('QUERY_USERS', 16);
const catchUpSeconds = env('CATCH_UP_SECONDS', 300);

const round1 = (n: number) => Math.round(n * 10) / 10;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const db = await createBenchDatabase('bench_orders');
  // The host app's stand-in issues the authorization codes the customers' access tokens are exchanged for.
  const deployment = await startBenchDeployment(db.url, { IDENTITY_SANDBOX: 'true' });
  const { config, secrets, tag } = deployment;
  const c = await buildContainer({ config, databaseUrl: db.url, secrets, logger: createLogger('error') });
  await c.startBackground();
  await registerBenchParty(c.services.gateway);
  const server = await listen(c.app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${server.port}`;
  console.log(
    `orders: ${deployment.nats ? 'api in this process, relay and projectors in another (NATS)' : 'every role in this process'}; cores=${os.cpus().length}; load average ${load()}`,
  );

  // 1. The history, through the projector.
  const shape: HistoryShape = { orders: historySize, merchants: 50, ordersPerCustomer: 10, days: 180, now: Date.now() };
  let shown = 0;
  const perSecond = await bulkLoadHistory(c.knex, shape, historyBatch, (n) => {
    if (n - shown >= 100_000) console.log(`  history: ${(shown = n)} orders loaded`);
  });
  console.log(`  history: ${historySize} orders through the projector at ${Math.round(perSecond)} orders/s`);

  // 2. Merchants and keys, the webhooks.
  const asBench = () => newCommandContext({ actor: { operator: 'bench' } });
  const merchants: BenchMerchant[] = [];
  for (let m = 0; m < merchantCount; m++) {
    const merchantId = `BENCH_${String(m).padStart(3, '0')}`;
    await c.services.orders.merchants.register(asBench(), { merchantId, name: `Bench ${m}` });
    const key = await c.services.orders.merchants.issue(asBench(), merchantId, 'live');
    merchants.push({ merchantId, apiKey: key.apiKey, secretKey: key.secretKey });
  }
  const warm = planWebhooks(warmUp, merchants, `warm${tag}`, Date.now());
  const warmRun = await loadInOwnProcess(
    server.port,
    warm.webhooks.map((w) => w.request),
    connections,
    { keepBodies: false },
  );
  console.log(
    `  warm-up: ${warmUp} webhooks, statuses ${JSON.stringify([...warmRun.statuses])}, p50 ${round1(percentile(warmRun.latenciesMs, 50))} ms`,
  );
  const plan = planWebhooks(webhooks, merchants, tag, Date.now());
  console.log(
    `  webhooks: ${webhooks} (${plan.orders} orders of ${merchantCount} merchants, ${plan.repeats} repeats, ${plan.swapped} out of order) over ${connections} connections; load average ${load()}`,
  );
  const cpu = await measureCpu({
    api: process.pid,
    ...(deployment.rolesPid !== undefined && { roles: deployment.rolesPid }),
    knex: c.knex,
  });
  const profile = await profileCpu(process.env.CPU_PROFILE_DIR, 'orders-webhooks');
  const run = await loadInOwnProcess(
    server.port,
    plan.webhooks.map((w) => w.request),
    connections,
  );
  await profile.stop();
  const cpuIngesting = await cpu.end(webhooks);
  const ingestPerS = webhooks / (run.elapsedMs / 1000);
  const outcomes = new Map<string, number>();
  for (const b of run.bodies) {
    const outcome =
      b.status === 200
        ? (b.body as { data: { outcome: string } }).data.outcome
        : `${b.status} ${JSON.stringify(b.body)}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  console.log(
    `  ingest: ${Math.round(ingestPerS)} webhooks/s, p50/p95/p99 ${round1(percentile(run.latenciesMs, 50))}/${round1(percentile(run.latenciesMs, 95))}/${round1(percentile(run.latenciesMs, 99))} ms, outcomes ${JSON.stringify([...outcomes])}`,
  );

  // 3. Lost: every distinct webhook answered 200 in the read model once the projector caught up.
  const accepted = new Set<PlannedWebhook>();
  for (const b of run.bodies) if (b.status === 200) accepted.add(plan.webhooks[b.index]!);
  const expectedKeys = new Set<string>();
  const expectedOrders = new Set<string>();
  for (const w of accepted) {
    const original =
      w.repeatOf === undefined ? w : plan.webhooks.find((p) => p.repeatOf === undefined && p.key === w.key)!;
    expectedKeys.add(original.key);
    if (w.kind === 'created') expectedOrders.add(`${w.merchantId}|${w.orderId}`);
  }
  const caughtUpFrom = performance.now();
  let lost = Number.POSITIVE_INFINITY;
  let missingExample = '';
  while (performance.now() - caughtUpFrom < catchUpSeconds * 1000) {
    const rows = (await c
      .knex(orderTables.history)
      .select('merchant_id', 'order_id', 'event', 'event_timestamp')
      .where('order_id', 'like', `W-${tag}-%`)) as {
      merchant_id: string;
      order_id: string;
      event: string;
      event_timestamp: string;
    }[];
    const present = new Set(rows.map((r) => `${r.merchant_id}|${r.order_id}|${r.event}|${r.event_timestamp}`));
    const orderRows = (await c
      .knex(orderTables.orders)
      .select('merchant_id', 'order_id')
      .where('order_id', 'like', `W-${tag}-%`)) as { merchant_id: string; order_id: string }[];
    const presentOrders = new Set(orderRows.map((r) => `${r.merchant_id}|${r.order_id}`));
    const missing = [...expectedKeys].filter((k) => !present.has(k));
    const missingOrders = [...expectedOrders].filter((k) => !presentOrders.has(k));
    lost = missing.length + missingOrders.length;
    missingExample = missing[0] ?? missingOrders[0] ?? '';
    if (lost === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.log(
    `  read model: ${expectedKeys.size} distinct accepted webhooks and ${expectedOrders.size} orders expected; ` +
      (lost === 0
        ? `all there ${round1((performance.now() - caughtUpFrom) / 1000)} s after the last answer`
        : `${lost} missing after ${catchUpSeconds} s (e.g. ${missingExample})`),
  );
  // Until the projectors caught up, the fan-out's and the projections' work for these webhooks included (and the
  // read model checks above, a little).
  console.log(`  cpu per webhook while answering: ${cpuIngesting}`);
  console.log(`  cpu per webhook until caught up: ${await cpu.end(webhooks)}`);

  // 4. Queries at the history's size. The plan and the answers (hundreds of MB at full size) go first: this process is
  // also the api, whose garbage collections would otherwise mark them again during the queries.
  for (const list of [plan.webhooks, warm.webhooks, run.bodies]) list.length = 0;
  for (const set of [accepted, expectedKeys, expectedOrders]) set.clear();
  const tokens = await customerTokens(base, sampledCustomers(shape, 50));
  // Each query phase twice: back to back over QUERY_CONNECTIONS (the capacity; the machine saturated, so its latency
  // is QUERY_CONNECTIONS / capacity, queueing rather than the query), then paced by QUERY_USERS users at QUERY_RATE or
  // at QUERY_LOAD of that capacity (the latency the target is about, at a stated load), as bench:payments paces its
  // inits (docs/orders-read-models.md, "Benchmark"). The paced pass's CPU per request, and with CPU_PROFILE_DIR the
  // api's profile of it.
  const queryPhase = async (profileName: string, requests: LoadRequest[]) => {
    const saturated = await loadInOwnProcess(server.port, requests, queryConnections, { keepBodies: false });
    const rate = queryRate ?? queryLoad * (requests.length / (saturated.elapsedMs / 1000));
    const cpuUse = await measureCpu({ api: process.pid, knex: c.knex });
    const profile = await profileCpu(process.env.CPU_PROFILE_DIR, profileName);
    const result = await loadInOwnProcess(server.port, requests, queryUsers, {
      ...paced(queryUsers, rate),
      keepBodies: false,
    });
    await profile.stop();
    return { saturated, result, cpu: await cpuUse.end(requests.length) };
  };
  const mine = await queryPhase('orders-my-orders', myOrdersRequests(tokens, queries));
  const portal = await queryPhase('orders-portal', portalRequests(shape, queries));
  const spread = (r: LoadResult) =>
    `p50/p95/p99 ${round1(percentile(r.latenciesMs, 50))}/${round1(percentile(r.latenciesMs, 95))}/${round1(percentile(r.latenciesMs, 99))} ms`;
  let failedQueries = 0;
  for (const [name, { saturated, result, cpu: cpuUse }] of [
    ['my orders', mine],
    ['portal', portal],
  ] as const) {
    const failed = [...saturated.bodies, ...result.bodies].filter((b) => b.status !== 200);
    failedQueries += failed.length;
    console.log(
      `  ${name}: back to back over ${queryConnections} connections ${Math.round(queries / (saturated.elapsedMs / 1000))} requests/s, ${spread(saturated)}; ` +
        `at ${Math.round(queries / (result.elapsedMs / 1000))} requests/s (${queryUsers} users) ${spread(result)}, statuses ${JSON.stringify([...result.statuses])}` +
        (failed.length ? `, e.g. ${JSON.stringify(failed[0]!.body)}` : '') +
        `; cpu per request: ${cpuUse}`,
    );
  }
  if (failedQueries > 0) throw new Error(`${failedQueries} queries were not answered 200`);
  const [{ n: orderRowCount }] = (await c.knex(orderTables.orders).count({ n: '*' })) as [{ n: string }];
  console.log(`  read model holds ${orderRowCount} orders; load average ${load()} (a shared, noisy machine)`);

  await server.close(1000);
  await c.stop();
  await deployment.stop();
  if (process.env.KEEP_DATABASE) console.log(`  database kept: ${db.url}`);
  else await db.drop();
  console.log(
    `orders: webhooks=${run.statuses.get(200) ?? 0} ingest_per_s=${Math.round(ingestPerS)} webhook_p99_ms=${round1(percentile(run.latenciesMs, 99))} lost=${lost} my_orders_p95_ms=${round1(percentile(mine.result.latenciesMs, 95))} portal_p95_ms=${round1(percentile(portal.result.latenciesMs, 95))}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
