/**
 * npm run bench:checkout — the promotion checkout under a fixed arrival rate over real HTTP (docs/checkout.md,
 * "Benchmark"). USERS wallets each hold one UNIQUE promotion; flows (applicable → reserve → confirm) of distinct
 * users start at RATE requests per second for ROUNDS rounds of SECONDS each, generated open-loop in a process of
 * its own (checkout-flows.ts). In the same run, the baseline: the same arrivals against a no-op endpoint behind the
 * same stack (gateway, the checkout's headers and key check, JSON, envelope), which is what the machine gives any
 * endpoint. Then a race: RACE checkouts reserve one promotion at once. Medians over the rounds. Last line:
 * checkout: users=<n> rate=<req/s> reserve_confirm_p99_ms=<x> applicable_p95_ms=<y> race_winners=<k>
 *
 * Env: USERS (10000), RATE (300), SECONDS (15), ROUNDS (3), RACE (50), DATABASE_URL (else embedded).
 */
import express, { Router } from 'express';
import { checkoutAuth } from '../api/checkout/checkout-auth.js';
import { checkoutOk } from '../api/checkout/checkout-errors.js';
import { checkoutGatewayFront } from '../api/checkout/gateway-front.js';
import { gatewayGuard } from '../api/gateway/index.js';
import { createHttpApp, listen } from '../api/shared/http-app.js';
import { on } from '../api/shared/route.js';
import { newCommandContext } from '../application/shared/command-context.js';
import { buildContainer, projectors } from '../container.js';
import { checkpointsCaughtUp } from '../tests/support/projections-caught-up.js';
import { startBenchDeployment } from './deployment.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { httpRequestDuration, metricsRegistry } from '../infrastructure/shared/metrics.js';
import { flowsInOwnProcess, type FlowResult } from './checkout-flows.js';
import { measureCpu } from './cpu-use.js';
import { createBenchDatabase } from './database.js';
import { watchGcPauses } from './gc-pauses.js';
import { sampleHeap } from './heap-sampling.js';
import { benchGatewayEnvironment, benchGatewayHeaders, registerBenchParty } from './gateway-party.js';
import { loadInOwnProcess } from './load-process.js';
import { percentile } from './load.js';

const users = Number(process.env.USERS ?? 10_000);
const rate = Number(process.env.RATE ?? 300);
const seconds = Number(process.env.SECONDS ?? 15);
const rounds = Number(process.env.ROUNDS ?? 3);
const race = Number(process.env.RACE ?? 50);

const asBench = () => newCommandContext({ actor: { operator: 'bench' } });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const flowsPerRound = Math.round((rate / 3) * seconds);
  if (flowsPerRound * rounds + Math.round(rate / 3) * 5 + 1 > users)
    throw new Error(`USERS too few: one per flow, warm-up included`);
  const db = await createBenchDatabase('bench');
  const logger = createLogger('error');
  const deployment = await startBenchDeployment(db.url);
  const { config, secrets } = deployment;
  const c = await buildContainer({ config, databaseUrl: db.url, secrets, logger });
  await c.startBackground();
  await registerBenchParty(c.services.gateway);
  const merchant = await c.services.shop.merchants.register(asBench(), { merchantId: 'BENCH', name: 'Bench' });
  const { promotionMasters, wallet } = c.services.checkout;
  const master = await promotionMasters.create(asBench(), {
    title: 'Bench 10%',
    shortTitle: '10%',
    promotionType: 'VOUCHER',
    codeType: 'UNIQUE',
    discount: { type: 'PERCENTAGE', percentage: 10, maxDiscount: 50_000 },
    minOrderValue: 100_000,
    scope: { type: 'PLATFORM' },
    categories: null,
    validFrom: new Date(Date.now() - 3600_000).toISOString(),
    validUntil: new Date(Date.now() + 86400_000).toISOString(),
    perUserLimit: 1,
    totalQuota: null,
    pinRequired: false,
    logoUrl: null,
    bannerUrl: null,
  });
  const setup = performance.now();
  const promotionOf: number[] = [];
  for (let from = 0; from <= users; from += 1000) {
    const recipients = Array.from({ length: Math.min(1000, users + 1 - from) }, (_, i) => ({
      userId: `user-${from + i}`,
    }));
    for (const issued of await wallet.issue(asBench(), master.promotionMasterId, recipients))
      promotionOf[Number(issued.userId.slice(5))] = issued.promotionId;
  }
  // applicable reads the wallet read model: wait until the projector holds every promotion.
  for (;;) {
    const [{ n }] = (await c
      .knex('checkout_wallet')
      .count({ n: '*' })
      .catch(() => [{ n: '0' }])) as [{ n: string }]; // the projector creates its table when it starts
    if (Number(n) >= users + 1) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Nor does any projector still work through the setup (timers, uses) while the first round is measured.
  await checkpointsCaughtUp(c.knex, c.projectorEventTypes(), projectors.length, 300_000);
  const server = await listen(c.app, 0, '127.0.0.1');

  // The baseline: the same stack in front of a handler that does nothing.
  const noop = Router();
  noop.post(
    '/bench-noop',
    gatewayGuard(checkoutGatewayFront, c.services.gateway, { logger }),
    checkoutAuth(c.services.checkout.merchantKeys),
    express.json(),
    on(() => checkoutOk({})),
  );
  const baselineServer = await listen(
    createHttpApp({
      logger,
      metrics: metricsRegistry,
      requestDuration: httpRequestDuration,
      routers: [{ path: '/loyalty/v1/promotion', router: noop }],
      ready: async () => ({ ready: true, checks: {} }),
    }),
    0,
    '127.0.0.1',
  );

  const headers = {
    ...benchGatewayHeaders,
    env: benchGatewayEnvironment,
    'x-auth-audience': 'superapp',
    'x-app-id': 'bench-app',
    'x-merchant-id': 'BENCH',
    'x-promotion-api-key': merchant.apiKey.key,
  };
  console.log(
    `checkout: ${deployment.nats ? 'api in this process, relay and projectors in another (NATS)' : 'every role in this process'}; ${users + 1} wallets issued and projected in ${Math.round((performance.now() - setup) / 1000)} s; ` +
      `${rounds} rounds of ${seconds} s at ${rate} req/s (${flowsPerRound} flows of applicable → reserve → confirm each, open loop), then the baseline and a race of ${race}`,
  );
  let nextUser = 1; // user-0 is the race's
  const flows = (n: number) =>
    Array.from({ length: n }, () => {
      const u = nextUser++;
      return { userId: `user-${u}`, promotionId: promotionOf[u]!, orderId: `order-${u}` };
    });

  // Warm-up, not counted: the first seconds at rate pay for JIT compilation and the connection pools' growth.
  await flowsInOwnProcess({
    port: server.port,
    rate,
    headers,
    flows: flows(Math.round(rate / 3) * 5),
    mode: 'checkout',
  });
  const results: FlowResult[] = [];
  const heap = await sampleHeap(process.env.HEAP_PROFILE);
  for (let r = 0; r < rounds; r++) {
    const gc = watchGcPauses();
    const cpu = await measureCpu({
      api: process.pid,
      ...(deployment.rolesPid !== undefined && { roles: deployment.rolesPid }),
      knex: c.knex,
    });
    const result = await flowsInOwnProcess({
      port: server.port,
      rate,
      headers,
      flows: flows(flowsPerRound),
      mode: 'checkout',
    });
    results.push(result);
    const rc = [...result.latencies.reserve!, ...(result.latencies.confirm ?? [])];
    console.log(
      `  round ${r + 1}: applicable p50/p95 ${round1(percentile(result.latencies.applicable!, 50))}/${round1(percentile(result.latencies.applicable!, 95))} ms, ` +
        `reserve+confirm p50/p99 ${round1(percentile(rc, 50))}/${round1(percentile(rc, 99))} ms, ` +
        `achieved ${Math.round((3 * flowsPerRound) / (result.elapsedMs / 1000))} req/s, generator lag ≤ ${round1(result.maxStartLagMs)} ms` +
        (Object.keys(result.failures).length ? `, failures ${JSON.stringify(result.failures)}` : ''),
    );
    console.log(`    api ${gc.stop()}; cpu per flow: ${await cpu.end(flowsPerRound)}`);
  }
  await heap.stop();
  const baseline = await flowsInOwnProcess({
    port: baselineServer.port,
    rate,
    headers,
    flows: Array.from({ length: flowsPerRound }, (_, i) => ({ userId: `user-${i}`, promotionId: 0, orderId: '' })),
    mode: 'baseline',
  });
  const noops = Object.values(baseline.latencies).flat();
  console.log(
    `  baseline (no-op behind the same stack, same arrivals): p50/p95/p99 ${round1(percentile(noops, 50))}/${round1(percentile(noops, 95))}/${round1(percentile(noops, 99))} ms`,
  );

  // The race: RACE checkouts of one user at once, each its own order, on one UNIQUE promotion.
  const raceAnswers = await loadInOwnProcess(
    server.port,
    Array.from({ length: race }, (_, i) => ({
      path: '/loyalty/v1/promotion/reserve',
      headers: {
        ...headers,
        'x-app-user-id': 'user-0',
        'x-request-id': crypto.randomUUID(),
        'x-idempotency-key': crypto.randomUUID(),
      },
      body: {
        order_id: `race-${i}`,
        selected_promotions: [{ promotion_id: promotionOf[0], code_type: 'UNIQUE' }],
        orders: [
          { merchant_id: 'BENCH', subtotal: 150_000, items: [{ item_id: 'i1', quantity: 2, unit_price: 75_000 }] },
        ],
      },
    })),
    race,
  );
  const winners = raceAnswers.statuses.get(200) ?? 0;
  const losers = raceAnswers.statuses.get(409) ?? 0;
  console.log(`  race: ${winners} reserved, ${losers} refused 409 8004, others ${race - winners - losers}`);

  const failures = results.flatMap((r) => Object.entries(r.failures));
  if (failures.length > 0) console.log(`  failures: ${JSON.stringify(failures)}`);
  const rcP99 = median(results.map((r) => percentile([...r.latencies.reserve!, ...(r.latencies.confirm ?? [])], 99)));
  const appP95 = median(results.map((r) => percentile(r.latencies.applicable!, 95)));

  await baselineServer.close(1000);
  await server.close(1000);
  await c.stop();
  await deployment.stop();
  await db.drop();
  console.log(
    `checkout: users=${users} rate=${rate} reserve_confirm_p99_ms=${round1(rcP99)} applicable_p95_ms=${round1(appP95)} race_winners=${winners}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
