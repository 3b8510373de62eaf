import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { testRateLimits } from './gateway.js';
export { freePort } from './free-port.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Polls `probe` every 100 ms until it answers something other than undefined. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether something accepts connections on the port of 127.0.0.1. */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export interface MainProcess {
  child: ChildProcess;
  /** The port of the first "service started" log line that `started` accepts (its health port without the api role). */
  port: number;
  /** Everything it wrote to stdout so far (JSON log lines and the demo banner). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * main.ts as `npm start` runs it, with `env` only (and PATH), in a process
 * group of its own when `detached` (so that a test can signal the group, as
 * Ctrl-C in a terminal does); resolves once a "service started" line that
 * `started` accepts was logged. With `npm`, started by `npm start` itself (npm,
 * then package.json's start script), `child` being npm.
 */
export async function startMain(
  env: Record<string, string>,
  options: {
    detached?: boolean;
    npm?: boolean;
    started?: (line: Record<string, unknown>) => boolean;
    timeoutMs?: number;
  } = {},
): Promise<MainProcess> {
  // Benchmarks: CPU_PROFILE_DIR=<dir> writes a V8 CPU profile of this process too (when it exits on SIGTERM).
  const profile = process.env.CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`] : [];
  const [command, args] = options.npm
    ? ['npm', ['start']]
    : [process.execPath, [...profile, '--import', 'tsx', 'main.ts']];
  const child = spawn(command, args, {
    cwd: root,
    // A test's main.ts is not throttled unless the test sets limits (tests/support/gateway.ts, testRateLimits).
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...testRateLimits, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Forwarded as before, and kept: a failure to start names its cause, which a CI log's tail may not show.
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    process.stderr.write(chunk);
  });
  const accepts = options.started ?? (() => true);
  // One that does not start in time is not left running behind the failed test.
  const port = await until(
    'the service to start',
    () => {
      if (child.exitCode !== null)
        throw new Error(`main.ts exited with ${child.exitCode}:\n${output}\nstderr:\n${errors}`);
      const lines = output.split('\n').filter((line) => line.startsWith('{') && line.includes('"service started"'));
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find(accepts);
      return (line?.port ?? line?.healthPort) as number | undefined;
    },
    options.timeoutMs ?? 60_000,
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { child, port, output: () => output, exited };
}
