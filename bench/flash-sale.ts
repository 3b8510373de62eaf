/**
 * npm run bench:flash-sale — a voucher pool with stock S, C concurrent keep-alive connections sending N reserves
 * (quantity 1) for U distinct users over real HTTP (the event-sourced path); the same load against a baseline
 * endpoint doing a plain `UPDATE … SET remaining = remaining - q WHERE remaining >= q` through the same HTTP stack
 * (gateway, auth, JSON, envelope, log context) and database; and the stack alone (no database). The load runs in a
 * process of its own (load-process.ts).
 *
 * A warm-up round first (not counted: no path is measured while it is being compiled), then ROUNDS rounds, each on
 * a fresh pool and baseline row, the three phases in an order that turns each round. Each round prints its rates,
 * latencies and the CPU per request of the api and the database; the last line gives the medians over the rounds
 * (ratios per round, then their median; oversold is the largest, accepted the smallest of the rounds), like
 * bench:catalog. CPU_PROFILE_DIR=<dir> writes each phase's CPU profile of the api (the last round's),
 * HEAP_PROFILE_DIR=<dir> its sampled allocations.
 * flash-sale: oversold=<n> accepted=<n> stock=<S> es_rps=<x> baseline_rps=<y> ratio=<x/y> p99_ms=<z> stack_rps=<s> es_vs_stack=<x/s>
 *
 * Env: STOCK (1000), CONCURRENCY (200), USERS (2000), REQUESTS (4 × STOCK), ROUNDS (3), DATABASE_URL (else embedded).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import express, { Router } from 'express';
import { createHttpApp, listen } from '../api/shared/http-app.js';
import { HttpError } from '../api/shared/interface-errors.js';
import { on } from '../api/shared/route.js';
import { gatewayGuard } from '../api/gateway/index.js';
import { shopAuth } from '../api/shop/auth.js';
import { shopGatewayFront } from '../api/shop/gateway-front.js';
import { shopOk } from '../api/shop/envelope.js';
import { shopRouter } from '../api/shop/router.js';
import { newCommandContext } from '../application/shared/command-context.js';
import { buildContainer, loadConfig } from '../container.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { httpRequestDuration, metricsRegistry } from '../infrastructure/shared/metrics.js';
import { median, percentile, type LoadRequest } from './load.js';
import { benchSecrets } from './bench-secrets.js';
import { createBenchDatabase } from './database.js';
import { benchGatewayEnvironment, benchGatewayHeaders, registerBenchParty } from './gateway-party.js';
import { benchSettings } from './bench-settings.js';
import { loadInOwnProcess } from './load-process.js';
import { profileCpu } from './cpu-profile.js';
import { sampleHeap } from './heap-sampling.js';
import path from 'node:path';
import { measureCpu } from './cpu-use.js';

const stock = Number(process.env.STOCK ?? 1000);
const concurrency = Number(process.env.CONCURRENCY ?? 200);
const users = Number(process.env.USERS ?? 2000);
const total = Number(process.env.REQUESTS ?? stock * 4);
const rounds = Number(process.env.ROUNDS ?? 3);
const price = 10_000;

async function main(): Promise<void> {
  const db = await createBenchDatabase('bench');
  const logger = createLogger('error');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    ROLES: 'api',
    GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
    ...benchSettings,
  });
  const secrets = benchSecrets();
  const c = await buildContainer({ config, databaseUrl: db.url, secrets, logger });
  await registerBenchParty(c.services.gateway);
  const merchant = await c.services.shop.merchants.register(newCommandContext({ actor: { operator: 'bench' } }), {
    merchantId: 'BENCH',
    name: 'Bench',
  });
  const campaign = await c.services.shop.campaigns.create(newCommandContext({ actor: { operator: 'bench' } }), {
    code: 'BENCH',
    name: 'Bench flash sale',
    description: '',
    campaignTag: 'FLASH_SALE',
    type: 'SELL',
    displayPriority: 1,
    themeUrl: 'https://example.com/t.png',
    startAt: new Date(Date.now() - 3600_000).toISOString(),
    endAt: new Date(Date.now() + 86400_000).toISOString(),
    presale: null,
    banners: [],
  });
  // On sale only once ACTIVE (docs/shop-purchase.md, "On sale").
  for (const status of ['APPROVED', 'ACTIVE'] as const)
    await c.services.shop.campaigns.changeStatus(
      newCommandContext({ actor: { operator: 'bench' } }),
      campaign.id,
      status,
    );
  // Each round sells a pool of its own, and the baseline a row of its own: every round starts from full stock.
  const newPool = async () =>
    c.services.shop.pools.create(newCommandContext({ actor: { operator: 'bench' } }), {
      campaignId: campaign.id,
      categoryId: 1,
      miniAppIds: [],
      display: {
        title: 'Bench voucher',
        shortTitle: 'Bench',
        brandName: 'Bench',
        logoUrl: '',
        bannerUrl: '',
        thumbnailUrl: '',
        description: '',
      },
      pricing: { faceValue: price, sellingPrice: price, discountedPrice: null, currency: 'VND' },
      totalQuantity: stock,
      terms: {
        usageType: 'ONLINE',
        termsAndConditions: '',
        validityDays: 30,
        usageLimit: null,
        maxPerDay: null,
        maxPerOrder: null,
      },
      validity: null,
    });

  // Baseline: the same HTTP stack (the gateway too) and database, one plain conditional UPDATE per request.
  const gateway = gatewayGuard(shopGatewayFront, c.services.gateway, { logger });
  await c.knex.raw('CREATE TABLE bench_baseline_stock (id bigint PRIMARY KEY, remaining int NOT NULL)');
  const baseline = Router();
  baseline.post(
    '/vouchers/reserve',
    gateway,
    shopAuth(c.services.shop.credentials, { requireUser: true }),
    express.json(),
    on(async (req) => {
      const item = (req.body as { items: { voucherPoolId: number; quantity: number }[] }).items[0]!;
      const { rowCount } = await c.knex.raw(
        'UPDATE bench_baseline_stock SET remaining = remaining - ? WHERE id = ? AND remaining >= ?',
        [item.quantity, item.voucherPoolId, item.quantity],
      );
      if (rowCount !== 1) throw new HttpError(400, 'SHOP-PUR-012', 'out of stock');
      return shopOk({ reservationKey: randomUUID() });
    }),
  );
  // The stack alone (gateway, auth, JSON, envelope, no database): the most either path could reach here.
  baseline.post(
    '/noop/vouchers/reserve',
    gateway,
    shopAuth(c.services.shop.credentials, { requireUser: true }),
    express.json(),
    on(() => shopOk({ reservationKey: randomUUID() })),
  );
  // The same middleware as the service's own app, so that only the handler differs.
  const baselineApp = createHttpApp({
    logger,
    metrics: metricsRegistry,
    requestDuration: httpRequestDuration,
    routers: [{ path: '/api/v1', router: shopRouter({ logger, routers: [baseline] }) }],
    ready: async () => ({ ready: true, checks: {} }),
  });

  const esServer = await listen(c.app, 0, '127.0.0.1');
  const baselineServer = await listen(baselineApp, 0, '127.0.0.1');
  const requests = (poolId: number, path = '/api/v1/vouchers/reserve'): LoadRequest[] =>
    Array.from({ length: total }, (_, i) => ({
      path,
      headers: {
        ...benchGatewayHeaders,
        'x-promotion-api-key': merchant.apiKey.key,
        'x-merchant-id': 'BENCH',
        'x-user-id': `user-${i % users}`,
        'x-request-id': randomUUID(),
        'x-idempotency-key': randomUUID(),
      },
      body: {
        orderId: `order-${i}-${randomUUID()}`,
        amount: price,
        currency: 'VND',
        items: [{ voucherPoolId: poolId, unitPrice: price, quantity: 1 }],
      },
    }));

  // Each phase's CPU per request (api: this process; database: the run's backends) says where the work goes even
  // when the neighbours' load moves the rates (docs/testing.md, "Benchmarks").
  const phase = async (name: string, port: number, load: LoadRequest[]) => {
    const profile = await profileCpu(process.env.CPU_PROFILE_DIR, name);
    const heapDir = process.env.HEAP_PROFILE_DIR;
    const heap = await sampleHeap(heapDir && path.join(heapDir, `${name}.heapprofile`));
    const cpu = await measureCpu({ api: process.pid, knex: c.knex });
    const result = await loadInOwnProcess(port, load, concurrency);
    const cpuLine = await cpu.end(load.length);
    await profile.stop();
    await heap.stop();
    return { ...result, rps: load.length / (result.elapsedMs / 1000), cpuLine };
  };

  /** One round: a fresh pool and baseline row, the three phases in the given order. */
  const round = async (order: Phase[]) => {
    const pool = await newPool();
    await c.knex('bench_baseline_stock').insert({ id: pool.poolId, remaining: stock });
    const loads: Record<Phase, () => Promise<Awaited<ReturnType<typeof phase>>>> = {
      es: () => phase('event-sourced', esServer.port, requests(pool.poolId)),
      baseline: () => phase('baseline', baselineServer.port, requests(pool.poolId)),
      stack: () => phase('stack', baselineServer.port, requests(pool.poolId, '/api/v1/noop/vouchers/reserve')),
    };
    const results = {} as Record<Phase, Awaited<ReturnType<typeof phase>>>;
    for (const name of order) results[name] = await loads[name]();
    const { es, baseline: base } = results;
    const accepted = es.bodies.filter((b) => b.status === 200);
    const unexpected = es.bodies.filter(
      (b) => b.status !== 200 && (b.body as { code?: string }).code !== 'SHOP-PUR-012',
    );
    const after = await c.services.shop.pools.get(pool.poolId);
    let missing = 0;
    for (const b of accepted) {
      const userId = `user-${b.index % users}`;
      const key = (b.body as { data: { reservationKey: string } }).data.reservationKey;
      const view = await c.services.shop.purchases
        .get(
          { merchantId: 'BENCH', userId, context: newCommandContext({ actor: { merchantId: 'BENCH', userId } }) },
          key,
        )
        .catch(() => undefined);
      if (!view) missing++;
    }
    if (missing) console.log(`  accepted reservations not found on lookup: ${missing}`);
    if (unexpected.length > 0) console.log(`  first unexpected answer: ${JSON.stringify(unexpected[0]!.body)}`);
    return {
      oversold: Math.max(0, accepted.length - stock, -after.remainingQuantity) + missing,
      accepted: accepted.length,
      unexpected: unexpected.length,
      remaining: after.remainingQuantity,
      baseAccepted: base.statuses.get(200) ?? 0,
      results,
    };
  };

  console.log(
    `flash-sale: stock=${stock} concurrency=${concurrency} users=${users} requests=${total} rounds=${rounds} cores=${os.cpus().length}`,
  );
  // Warm-up: a round like the others, not counted, so that no path is measured while it is compiled.
  await round(['es', 'baseline', 'stack']);
  const measured: Awaited<ReturnType<typeof round>>[] = [];
  for (let r = 0; r < rounds; r++) {
    // The order turns each round, so that no path always runs first (or right after another one's garbage).
    const order = (['es', 'baseline', 'stack'] as Phase[]).map((_, i, all) => all[(i + r) % all.length]!);
    const m = await round(order);
    measured.push(m);
    const { es, baseline: base, stack: bare } = m.results;
    console.log(`round ${r + 1} (${order.join(', ')}):`);
    console.log(
      `  event-sourced: statuses=${JSON.stringify([...es.statuses])} remaining=${m.remaining} rps=${es.rps.toFixed(0)} p50_ms=${percentile(es.latenciesMs, 50).toFixed(1)} p99_ms=${percentile(es.latenciesMs, 99).toFixed(1)} unexpected=${m.unexpected}`,
    );
    console.log(`    cpu per request: ${es.cpuLine}`);
    console.log(
      `  baseline:      statuses=${JSON.stringify([...base.statuses])} accepted=${m.baseAccepted} rps=${base.rps.toFixed(0)} p50_ms=${percentile(base.latenciesMs, 50).toFixed(1)} p99_ms=${percentile(base.latenciesMs, 99).toFixed(1)}`,
    );
    console.log(`    cpu per request: ${base.cpuLine}`);
    console.log(`  http stack alone (no database): rps=${bare.rps.toFixed(0)}`);
    console.log(`    cpu per request: ${bare.cpuLine}`);
  }

  await esServer.close(1000);
  await baselineServer.close(1000);
  await c.stop();
  await db.drop();
  const med = (f: (m: (typeof measured)[number]) => number) => median(measured.map(f));
  const esRps = med((m) => m.results.es.rps);
  console.log(
    `flash-sale: oversold=${Math.max(...measured.map((m) => m.oversold))} accepted=${Math.min(...measured.map((m) => m.accepted))} stock=${stock} es_rps=${esRps.toFixed(0)} baseline_rps=${med((m) => m.results.baseline.rps).toFixed(0)} ratio=${med((m) => m.results.es.rps / m.results.baseline.rps).toFixed(2)} p99_ms=${med((m) => percentile(m.results.es.latenciesMs, 99)).toFixed(1)} stack_rps=${med((m) => m.results.stack.rps).toFixed(0)} es_vs_stack=${med((m) => m.results.es.rps / m.results.stack.rps).toFixed(2)}`,
  );
}

type Phase = 'es' | 'baseline' | 'stack';

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
