import net from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startTestApp, type TestApp } from './app.js';

/** The NATS server tests use: NATS_URL, else the local default. */
export const testNatsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url.replace(/^nats:/, 'http:'));
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 4222) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Call in a suite's before hook: skips the suite (with a notice) when NATS is
 * unreachable, except under CI=true, where an unreachable NATS fails the run.
 */
export async function requireNats(ctx: Mocha.Context): Promise<string> {
  if (await reachable(testNatsUrl)) return testNatsUrl;
  if (process.env.CI === 'true')
    throw new Error(`NATS is not reachable at ${testNatsUrl} and CI=true: NATS tests must run in CI`);
  console.warn(`NOTICE: NATS not reachable at ${testNatsUrl}; skipping "${ctx.test?.parent?.title}"`);
  ctx.skip();
  return testNatsUrl;
}

/**
 * The whole service on NATS JetStream for the suite it is called in: started
 * before its tests (skipped as requireNats says), stopped after them with its
 * JetStream stream deleted. Answers a getter of the running app.
 */
export function natsTestApp(): () => TestApp {
  let app: TestApp | undefined;
  before(async function () {
    await requireNats(this);
    app = await startTestApp({ env: { NATS_URL: testNatsUrl } });
  });
  after(async () => {
    if (!app) return;
    const stream = app.container.config.NATS_STREAM;
    await app.stop();
    const nc = await connect({ servers: testNatsUrl });
    try {
      await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    } finally {
      await nc.close();
    }
  });
  return () => app!;
}
