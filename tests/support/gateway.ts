/** The gateway credentials every test app accepts: startTestApp and the fast app register them for every interface. */
export const testGatewayClient = { clientId: 'test-client', clientSecret: 'test-client-secret-0123456789' };

/**
 * The rate limits of test deployments (startTestApp, the fast app, main.ts started by a test): far above what a test
 * sends, with no per-user limit, so that a test is never throttled unless it sets limits of its own.
 */
export const testRateLimits = {
  GATEWAY_RATE_LIMIT_POINTS: '10000000',
  GATEWAY_RATE_LIMIT_WINDOW_SECONDS: '1',
  GATEWAY_USER_RATE_LIMIT_POINTS: '0',
};

/** The gateway's headers for a test request. */
export const gatewayHeaders = (): Record<string, string> => ({
  client_id: testGatewayClient.clientId,
  client_secret: testGatewayClient.clientSecret,
});

import net from 'node:net';
import type { GatewayEnvironment, GatewayServices } from '../../application/gateway/index.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import { gatewayInterfaces } from '../../application/shared/gateway.js';

/** The party testGatewayClient belongs to. */
export const testGatewayPartyId = 'test-party';

/**
 * Registers testGatewayClient's party (INTERNAL, every interface, no allowlist, the default limits) with that pair
 * imported for `environment`, the test deployment's.
 */
export async function registerTestGatewayClient(
  gateway: Pick<GatewayServices, 'parties'>,
  environment: GatewayEnvironment,
): Promise<void> {
  const asTests = () => newCommandContext({ actor: { operator: 'tests' } });
  await gateway.parties.register(asTests(), testGatewayPartyId, {
    name: 'Tests',
    kind: 'INTERNAL',
    interfaces: [...gatewayInterfaces],
    ipAllowlist: [],
    rateLimits: [],
  });
  await gateway.parties.issueCredential(asTests(), testGatewayPartyId, {
    environments: [environment],
    clientId: testGatewayClient.clientId,
    clientSecret: testGatewayClient.clientSecret,
  });
}

/** The Redis the redis rate-limit store's tests use: REDIS_URL, else the local default. */
export const testRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Call in a suite's before hook: skips the suite (with a notice) when Redis is unreachable, except under CI=true,
 * where an unreachable Redis fails the run (as requireNats does for NATS).
 */
export async function requireRedis(ctx: Mocha.Context): Promise<string> {
  const { hostname, port } = new URL(testRedisUrl);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
  if (reachable) return testRedisUrl;
  if (process.env.CI === 'true')
    throw new Error(`Redis is not reachable at ${testRedisUrl} and CI=true: the redis store's tests must run in CI`);
  console.warn(`NOTICE: Redis not reachable at ${testRedisUrl}; skipping "${ctx.test?.parent?.title}"`);
  ctx.skip();
  return testRedisUrl;
}
