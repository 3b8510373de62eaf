/**
 * A nats-server of the test's own (Debian's /usr/sbin/nats-server, or NATS_SERVER_BIN), on its own port and store
 * directory, so that a test can kill it and start it again freely. Missing binary: skipped with a notice, failed
 * under CI=true.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort } from './free-port.js';

const binary = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export interface OwnNatsServer {
  url: string;
  /** kill -9, and wait for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store directory. */
  start(): Promise<void>;
  /** Empties its store directory (while it is down): it comes back without the stream and consumers. */
  wipe(): void;
  stop(): Promise<void>;
}

async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => (socket.destroy(), resolve(false)));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nats-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Call in a before hook. */
export async function startOwnNatsServer(ctx: Mocha.Context): Promise<OwnNatsServer> {
  if (!fs.existsSync(binary)) {
    if (process.env.CI === 'true') throw new Error(`no nats-server at ${binary} and CI=true`);
    console.warn(`NOTICE: no nats-server at ${binary}; skipping "${ctx.test?.parent?.title}"`);
    ctx.skip();
  }
  const port = await freePort();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-nats-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: 'ignore' });
    await listening(port);
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill,
    start,
    wipe: () => {
      fs.rmSync(storeDir, { recursive: true, force: true });
      fs.mkdirSync(storeDir);
    },
    async stop() {
      await kill();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
