import { randomBytes } from 'node:crypto';
import { listen, type RunningServer } from '../../api/shared/http-app.js';
import type { Clock } from '../../application/shared/clock.js';
import { buildContainer, type Container, loadConfig, type Secrets } from '../../container.js';
import type { AnyContextModule } from '../../context-module.js';
import { newSigningKeyJwk, readSigningKeys } from '../../infrastructure/identity/index.js';
import { createLogger, type Logger } from '../../infrastructure/shared/logger.js';
import { registerTestGatewayClient, testRateLimits } from './gateway.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

export interface TestApp {
  container: Container;
  server: RunningServer;
  baseUrl: string;
  db: TestDatabase;
  secrets: Secrets;
  stop(): Promise<void>;
}

/**
 * The whole service, as main.ts builds it, on a fresh database and a random
 * port. `env` overrides configuration (e.g. { NATS_URL } or
 * { SHOP_IDEMPOTENCY_MODE: 'reject' }); background roles start unless
 * `background: false`. The gateway accepts testGatewayClient (tests/support/gateway.ts) for every interface.
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    background?: boolean;
    /** The service's logger (default: errors only, to the console); a test of the logs passes its own. */
    logger?: Logger;
    /** The contexts to run (default: contexts.ts's); a test adds an example context (tests/api/fast/example-context). */
    contexts?: readonly AnyContextModule[];
  } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    // Tests send bursts far beyond a real party's or user's rate (docs/testing.md): limits are set explicitly, and
    // the rate-limit tests set their own.
    ...testRateLimits,
    NATS_STREAM: `TEST_${randomBytes(4).toString('hex')}`,
    NATS_SUBJECT_PREFIX: `test${randomBytes(4).toString('hex')}`,
    ...options.env,
  });
  const secrets: Secrets = {
    OPERATOR_TOKENS: [{ name: 'alice', token: 'alice-operator-token-0123456789' }],
    VOUCHER_CODE_KEY: randomBytes(32).toString('hex'),
    VOUCHER_CODE_OLD_KEYS: [],
    CHECKOUT_CODE_KEY: randomBytes(32).toString('hex'),
    CHECKOUT_CODE_OLD_KEYS: [],
    IDENTITY_SIGNING_KEYS: readSigningKeys(JSON.stringify([newSigningKeyJwk()])),
    ORDERS_SECRET_KEY_KEY: randomBytes(32).toString('hex'),
    ORDERS_SECRET_KEY_OLD_KEYS: [],
    PAYMENTS_SECRETS_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_SECRETS_OLD_KEYS: [],
  };
  const container = await buildContainer({
    config,
    databaseUrl: db.url,
    secrets,
    logger: options.logger ?? createLogger('error'),
    clock: options.clock,
    contexts: options.contexts,
  });
  await registerTestGatewayClient(container.services.gateway, container.services.gateway.check.environment);
  if (options.background !== false) await container.startBackground();
  const server = await listen(container.app, 0, '127.0.0.1');
  return {
    container,
    server,
    baseUrl: `http://127.0.0.1:${server.port}`,
    db,
    secrets,
    async stop() {
      await server.close(1000);
      await container.stop();
      await db.drop();
    },
  };
}
