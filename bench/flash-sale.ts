/**
 * npm run bench:flash-sale — one voucher pool with stock S, C concurrent
 * keep-alive connections sending N reserves (quantity 1) for U distinct users
 * over real HTTP; then the same load against a baseline endpoint doing a plain
 * `UPDATE … SET remaining = remaining - q WHERE remaining >= q` through the
 * same HTTP stack (auth, JSON, envelope) and database. The load runs in a
 * process of its own (load-process.ts). Last line:
 * flash-sale: oversold=<n> accepted=<n> stock=<S> es_rps=<x> baseline_rps=<y> ratio=<x/y> p99_ms=<z> stack_rps=<s> es_vs_stack=<x/s>
 *
 * Env: STOCK (1000), CONCURRENCY (200), USERS (2000), REQUESTS (4 × STOCK), DATABASE_URL (else embedded).
 */
import { randomBytes, randomUUID } from 'node:crypto';
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
import { buildContainer, loadConfig, type Secrets } from '../container.js';
import { newSigningKeyJwk, readSigningKeys } from '../infrastructure/identity/index.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { httpRequestDuration, metricsRegistry } from '../infrastructure/shared/metrics.js';
import { percentile, type LoadRequest } from './load.js';
import { createBenchDatabase } from './database.js';
import { benchGatewayEnvironment, benchGatewayHeaders, registerBenchParty } from './gateway-party.js';
import { loadInOwnProcess } from './load-process.js';

const stock = Number(process.env.STOCK ?? 1000);
const concurrency = Number(process.env.CONCURRENCY ?? 200);
const users = Number(process.env.USERS ?? 2000);
const total = Number(process.env.REQUESTS ?? stock * 4);
const price = 10_000;

async function main(): Promise<void> {
  const db = await createBenchDatabase('bench');
  const logger = createLogger('error');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    ROLES: 'api',
    GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
  });
  const secrets: Secrets = {
    OPERATOR_TOKENS: [{ name: 'bench', token: 'bench-operator-token-0123456789abcdef' }],
    VOUCHER_CODE_KEY: randomBytes(32).toString('hex'),
    VOUCHER_CODE_OLD_KEYS: [],
    IDENTITY_SIGNING_KEYS: readSigningKeys(JSON.stringify([newSigningKeyJwk()])),
    PAYMENTS_SECRETS_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_SECRETS_OLD_KEYS: [],
  };
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
  const pool = await c.services.shop.pools.create(newCommandContext({ actor: { operator: 'bench' } }), {
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
  await c.knex('bench_baseline_stock').insert({ id: pool.poolId, remaining: stock });
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
  const baselineApp = createHttpApp({
    logger,
    metrics: metricsRegistry,
    requestDuration: httpRequestDuration,
    routers: [{ path: '/api/v1', router: shopRouter({ logger, routers: [baseline] }) }],
    ready: async () => ({ ready: true, checks: {} }),
  });

  const esServer = await listen(c.app, 0, '127.0.0.1');
  const baselineServer = await listen(baselineApp, 0, '127.0.0.1');
  const requests = (path = '/api/v1/vouchers/reserve'): LoadRequest[] =>
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
        items: [{ voucherPoolId: pool.poolId, unitPrice: price, quantity: 1 }],
      },
    }));

  console.log(
    `flash-sale: stock=${stock} concurrency=${concurrency} users=${users} requests=${total} cores=${os.cpus().length}`,
  );
  const es = await loadInOwnProcess(esServer.port, requests(), concurrency);
  const base = await loadInOwnProcess(baselineServer.port, requests(), concurrency);
  const stack = await loadInOwnProcess(baselineServer.port, requests('/api/v1/noop/vouchers/reserve'), concurrency);

  const accepted = es.bodies.filter((b) => b.status === 200);
  const unexpected = es.bodies.filter((b) => b.status !== 200 && (b.body as { code?: string }).code !== 'SHOP-PUR-012');
  const after = await c.services.shop.pools.get(pool.poolId);
  let missing = 0;
  for (const b of accepted) {
    const key = (b.body as { data: { reservationKey: string } }).data.reservationKey;
    const view = await c.services.shop.purchases
      .get(
        {
          merchantId: 'BENCH',
          userId: `user-${b.index % users}`,
          context: newCommandContext({ actor: { merchantId: 'BENCH', userId: `user-${b.index % users}` } }),
        },
        key,
      )
      .catch(() => undefined);
    if (!view) missing++;
  }
  const oversold = Math.max(0, accepted.length - stock, -after.remainingQuantity);
  const baseAccepted = base.statuses.get(200) ?? 0;
  const esRps = total / (es.elapsedMs / 1000);
  const baseRps = total / (base.elapsedMs / 1000);
  const stackRps = total / (stack.elapsedMs / 1000);
  console.log(
    `event-sourced: statuses=${JSON.stringify([...es.statuses])} remaining=${after.remainingQuantity} p50_ms=${percentile(es.latenciesMs, 50).toFixed(1)} unexpected=${unexpected.length}`,
  );
  console.log(
    `baseline:      statuses=${JSON.stringify([...base.statuses])} accepted=${baseAccepted} p50_ms=${percentile(base.latenciesMs, 50).toFixed(1)} p99_ms=${percentile(base.latenciesMs, 99).toFixed(1)}`,
  );
  console.log(`http stack alone (no database): rps=${stackRps.toFixed(0)}, the ceiling of both paths on this machine`);
  if (missing) console.log(`accepted reservations not found on lookup: ${missing}`);
  if (unexpected.length > 0) console.log(`first unexpected answer: ${JSON.stringify(unexpected[0]!.body)}`);

  await esServer.close(1000);
  await baselineServer.close(1000);
  await c.stop();
  await db.drop();
  console.log(
    `flash-sale: oversold=${oversold + missing} accepted=${accepted.length} stock=${stock} es_rps=${esRps.toFixed(0)} baseline_rps=${baseRps.toFixed(0)} ratio=${(esRps / baseRps).toFixed(2)} p99_ms=${percentile(es.latenciesMs, 99).toFixed(1)} stack_rps=${stackRps.toFixed(0)} es_vs_stack=${(esRps / stackRps).toFixed(2)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
