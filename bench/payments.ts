/**
 * npm run bench:payments — the payment hub over real HTTP (docs/payments.md, "Benchmark"): INITS signed inits paced at
 * RATE requests/s, the sandbox wallet's signed approval of each (a provider callback: HOLDING), then a signed confirm
 * of each at the same pace; then RACES races of CONCURRENCY confirms, cancels and provider callbacks at once on one
 * held transaction each, counting the outcomes each race appended; and the cost of verifying one init signature. The
 * load runs in a process of its own (load-process.ts). Last line:
 * payments: inits=<n> init_p99_ms=<x> confirm_p99_ms=<y> race_outcomes=<k> sign_verify_us=<z>
 *
 * Env: INITS (5000), RATE (200), CONNECTIONS (20), RACES (20), CONCURRENCY (30), WARM_UP (500 unmeasured flows first),
 * DATABASE_URL (else embedded).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { listen } from '../api/shared/http-app.js';
import { initSigningString } from '../application/payments/index.js';
import { newCommandContext } from '../application/shared/command-context.js';
import { hmacSha256Hex } from '../application/shared/signatures.js';
import { buildContainer, loadConfig } from '../container.js';
import { benchSecrets } from './bench-secrets.js';
import { demoPaymentMethods } from '../infrastructure/payments/demo-seed.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { createBenchDatabase } from './database.js';
import { benchGatewayEnvironment, benchGatewayHeaders, registerBenchParty } from './gateway-party.js';
import { benchSettings, localReceiverEgress } from './bench-settings.js';
import { loadInOwnProcess } from './load-process.js';
import { paced, percentile, type LoadRequest } from './load.js';

const inits = Number(process.env.INITS ?? 5000);
const rate = Number(process.env.RATE ?? 200);
const connections = Number(process.env.CONNECTIONS ?? 20);
const races = Number(process.env.RACES ?? 20);
const concurrency = Number(process.env.CONCURRENCY ?? 30);
const warmUp = Number(process.env.WARM_UP ?? 500);
const walletProviderId = '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02';

async function main(): Promise<void> {
  const db = await createBenchDatabase('bench_payments');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    ROLES: 'api',
    GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
    ...benchSettings,
  });
  const secrets = benchSecrets();
  const c = await buildContainer({
    config,
    databaseUrl: db.url,
    secrets,
    logger: createLogger('error'),
    // The IPN receiver runs on this machine over plain http, which production's egress policy refuses.
    egress: localReceiverEgress,
  });
  await registerBenchParty(c.services.gateway);
  const { onboarding, signatures, transactions } = c.services.payments;
  const asBench = () => newCommandContext({ actor: { operator: 'bench' } });
  const { secret } = await onboarding.onboard(asBench(), {
    merchantCode: 'bench',
    name: 'Bench',
    ipnUrl: 'http://127.0.0.1:9/ipn',
    maxIpnRetries: 0,
  });
  await onboarding.addTerminal(asBench(), 'bench', { terminalId: 'T1', name: 'T1' });
  const { paymentApiKey } = await onboarding.issueApiKey(asBench(), 'bench', 'T1', { expiresAt: null });
  await onboarding.configureMethod(
    asBench(),
    'bench',
    'T1',
    demoPaymentMethods.find((m) => m.code === 'WALLET')!,
  );
  const secretKey = secret.secretKey;
  const walletKey = hmacSha256Hex(secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_WALLET');
  const server = await listen(c.app, 0, '127.0.0.1');
  const ts = () => String(Math.floor(Date.now() / 1000));
  const hubHeaders = () => ({
    ...benchGatewayHeaders,
    'x-payment-api-key': paymentApiKey,
    'x-request-id': randomUUID(),
    'x-timestamp': ts(),
  });
  const initRequest = (orderId: string): LoadRequest => {
    const body = {
      amount: 150_000,
      currency: 'VND',
      description: `Bench ${orderId}`,
      orderId,
      referenceId: `REF-${orderId}`,
      paymentMethodCode: 'WALLET',
      providerId: walletProviderId,
      orderInfo: { orderCreatedAt: Date.now() },
    };
    const raw = initSigningString({ ...body, orderCreatedAt: body.orderInfo.orderCreatedAt });
    return {
      path: '/api/payments/v1/transactions',
      headers: hubHeaders(),
      body: { ...body, secureHash: hmacSha256Hex(secretKey, raw) },
    };
  };
  const callbackRequest = (transactionId: string, result: 'AUTHORIZED' | 'DECLINED'): LoadRequest => {
    const body = {
      callbackId: randomUUID(),
      transactionId,
      providerTransactionId: `SBX-${transactionId}`,
      result,
      errorCode: result === 'DECLINED' ? 'BENCH' : null,
      errorMessage: result === 'DECLINED' ? 'bench decline' : null,
      payment: null,
      sentAt: new Date().toISOString(),
    };
    return {
      path: '/payment-providers/v1/SANDBOX_WALLET/callbacks',
      headers: { 'x-provider-signature': hmacSha256Hex(walletKey, JSON.stringify(body)) },
      body,
    };
  };
  const putRequest = (path: 'confirm' | 'cancel', transactionId: string): LoadRequest => {
    const headers = hubHeaders();
    return {
      method: 'PUT',
      path: `/api/payments/v1/transactions/${path}`,
      headers,
      body: { transactionId, secureHash: hmacSha256Hex(secretKey, `${transactionId}|${headers['x-timestamp']}`) },
    };
  };
  const run = `${Date.now()}`;
  // Each connection pauses so that together they send about RATE requests/s: a cycle is a pause and an answer
  // (about a tenth of the cycle at this rate), the pauses drawn at random so that requests arrive as users' would.
  const pacing = paced(connections, rate);
  // Warm-up (not measured): the JIT, the pools and the caches, as a process that has served a while.
  const warm = await loadInOwnProcess(
    server.port,
    Array.from({ length: warmUp }, (_, i) => initRequest(`W-${run}-${i}`)),
    connections,
    pacing,
  );
  const warmIds = warm.bodies.map((b) => (b.body as { data: { transaction: { id: string } } }).data.transaction.id);
  await loadInOwnProcess(
    server.port,
    warmIds.map((id) => callbackRequest(id, 'AUTHORIZED')),
    connections,
    { keepBodies: false },
  );
  const warmConfirm = await loadInOwnProcess(
    server.port,
    warmIds.map((id) => putRequest('confirm', id)),
    connections,
    { keepBodies: false },
  );
  const latency = percentile(warm.latenciesMs, 50);
  console.log(
    `warm-up:  ${warmUp} inits p50_ms=${latency.toFixed(1)}, confirms p50_ms=${percentile(warmConfirm.latenciesMs, 50).toFixed(1)}`,
  );
  console.log(
    `payments: inits=${inits} rate=${rate}/s connections=${connections} races=${races}×${concurrency} cores=${os.cpus().length}`,
  );

  // 1. Inits, paced.
  const initLoad = await loadInOwnProcess(
    server.port,
    Array.from({ length: inits }, (_, i) => initRequest(`B-${run}-${i}`)),
    connections,
    pacing,
  );
  const initiated = initLoad.bodies
    .filter((b) => b.status === 200)
    .map((b) => (b.body as { data: { transaction: { id: string } } }).data.transaction.id);
  console.log(
    `init:     statuses=${JSON.stringify([...initLoad.statuses])} p50_ms=${percentile(initLoad.latenciesMs, 50).toFixed(1)} rps=${(inits / (initLoad.elapsedMs / 1000)).toFixed(0)}`,
  );

  // 2. The provider approves each (HOLDING), as fast as it can.
  const approvals = await loadInOwnProcess(
    server.port,
    initiated.map((id) => callbackRequest(id, 'AUTHORIZED')),
    connections,
    { keepBodies: false },
  );
  console.log(`approve:  statuses=${JSON.stringify([...approvals.statuses])}`);

  // 3. Confirms, paced.
  const confirmLoad = await loadInOwnProcess(
    server.port,
    initiated.map((id) => putRequest('confirm', id)),
    connections,
    { ...pacing, keepBodies: false },
  );
  console.log(
    `confirm:  statuses=${JSON.stringify([...confirmLoad.statuses])} p50_ms=${percentile(confirmLoad.latenciesMs, 50).toFixed(1)}`,
  );

  // 4. Races: confirms, cancels and provider declines at once on one held transaction.
  let maxOutcomes = 0;
  for (let r = 0; r < races; r++) {
    const init = await loadInOwnProcess(server.port, [initRequest(`RACE-${run}-${r}`)], 1);
    const id = (init.bodies[0]!.body as { data: { transaction: { id: string } } }).data.transaction.id;
    await loadInOwnProcess(server.port, [callbackRequest(id, 'AUTHORIZED')], 1, { keepBodies: false });
    const racers = Array.from({ length: concurrency }, (_, i) =>
      i % 3 === 0
        ? putRequest('confirm', id)
        : i % 3 === 1
          ? putRequest('cancel', id)
          : callbackRequest(id, 'DECLINED'),
    );
    const raced = await loadInOwnProcess(server.port, racers, concurrency, { keepBodies: false });
    const events = await c.store.readStream(`transaction-${id}`);
    const outcomes = events.filter((e) =>
      ['TransactionCompleted', 'TransactionCancelled', 'TransactionFailed'].includes(e.type),
    ).length;
    const won = raced.statuses.get(200) ?? 0;
    if (won !== outcomes) console.log(`race ${r}: ${won} answered 200 but ${outcomes} outcomes appended`);
    maxOutcomes = Math.max(maxOutcomes, outcomes, won);
  }

  // 5. Verifying one init signature (the merchant's secretKeys decrypted, HMAC, constant-time compare), in process.
  const caller = { merchantCode: 'bench', terminalId: 'T1', apiKeyId: '' };
  const raw = 'B-1|REF-B-1|150000|VND|1772359200000';
  const hash = hmacSha256Hex(secretKey, raw);
  const rounds = 20_000;
  for (let i = 0; i < 1000; i++) await signatures.verify(caller, raw, hash);
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await signatures.verify(caller, raw, hash);
  const verifyUs = Number(process.hrtime.bigint() - started) / 1000 / rounds;

  const completed = (await Promise.all(initiated.slice(0, 20).map((id) => transactions.load(id)))).filter(
    (t) => t.status === 'COMPLETED',
  ).length;
  console.log(`check:    ${completed}/20 sampled transactions COMPLETED`);
  await server.close(1000);
  await c.stop();
  await db.drop();
  console.log(
    `payments: inits=${initiated.length} init_p99_ms=${percentile(initLoad.latenciesMs, 99).toFixed(1)} confirm_p99_ms=${percentile(confirmLoad.latenciesMs, 99).toFixed(1)} race_outcomes=${maxOutcomes} sign_verify_us=${verifyUs.toFixed(1)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
