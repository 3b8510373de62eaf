import fs from 'node:fs';
import { expect } from 'chai';
import { until, type MainProcess } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';
import { demoCredentialsWritten, startDemo } from '../../support/walkthroughs.js';

/** The pids of a process's children (Linux). */
function children(pid: number): number[] {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((task) =>
    fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/** The node processes among them: the workers (esbuild's service, which tsx starts, is a child too). */
const workerPids = (pid: number) =>
  children(pid).filter((child) => fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.ts'));

/** One GET on a connection of its own, so that the primary hands each to the next worker. */
const get = (port: number, route: string) =>
  fetch(`http://127.0.0.1:${port}${route}`, { headers: { connection: 'close' } });

const readyChecks = async (port: number) => {
  const res = await get(port, '/ready');
  return { status: res.status, checks: ((await res.json()) as { checks: Record<string, boolean> }).checks };
};

describe('main.ts with API_WORKERS=2 (node:cluster), seeding the demo as npm start does', function () {
  this.timeout(120_000);
  const suite = mainSuite('api-workers');
  let service: MainProcess;
  let port: number;
  const readiness: { status: number; body: unknown; credentials: ReturnType<typeof demoCredentialsWritten> }[] = [];

  before(async () => {
    // Started as the README tells a script to: until /ready answers 200, each poll reaching the next worker.
    ({ service } = await startDemo(suite, {
      env: { API_WORKERS: '2' },
      started: (line) => line.apiWorkers === 2,
      onReady: (answer) => readiness.push({ ...answer, credentials: demoCredentialsWritten(suite.dataDir) }),
    }));
    port = service.port;
  });

  it('answers /ready 503 from the workers (checks.primary false) until the primary has seeded, then 200', () => {
    const early = readiness.slice(0, -1);
    // The workers serve before the primary seeds (the order view's seed sends its orders through them).
    expect(early, 'the answers before READY').to.have.length.above(0);
    for (const answer of early) {
      expect(answer.status).to.equal(503);
      expect((answer.body as { checks: Record<string, boolean> }).checks).to.include({ primary: false });
    }
    expect(early.map((a) => a.credentials)).to.include.oneOf(['absent', 'partial']);
    const ready = readiness.at(-1)!;
    expect((ready.body as { checks: Record<string, boolean> }).checks).to.include({ database: true, primary: true });
    expect(ready.credentials).to.equal('complete');
  });

  it('serves the api from two worker processes, each an api process of its own', async () => {
    expect(workerPids(service.child.pid!)).to.have.length(2);
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(port, '/health')));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(200));
  });

  it('answers GET /metrics for the whole service: the workers summed, and the primary’s own roles', async () => {
    const before = await (await get(port, '/metrics')).text();
    const count = (text: string) =>
      Number(
        /^http_request_duration_seconds_count\{method="GET",route="\/health",status_code="200"\} (\d+)$/m.exec(
          text,
        )?.[1] ?? 0,
      );
    await Promise.all(Array.from({ length: 10 }, () => get(port, '/health')));
    const after = await (await get(port, '/metrics')).text();
    // Round robin gave both workers some of the ten; one worker's registry alone would count about half.
    expect(count(after) - count(before)).to.equal(10);
    // The projectors run in the primary, which sets their lag every 5 s; no worker does.
    const lag = /^projection_lag_events\{projector="shop-catalog"\} 0$/m;
    await until(
      'the projectors’ lag on /metrics',
      async () => (lag.test(await (await get(port, '/metrics')).text()) ? true : undefined),
      15_000,
    );
  });

  it('replaces a worker that dies, and goes on answering meanwhile', async () => {
    const [victim, survivor] = workerPids(service.child.pid!);
    process.kill(victim!, 'SIGKILL');
    const now = await until('a new worker', () => {
      const pids = workerPids(service.child.pid!);
      return pids.length === 2 && !pids.includes(victim!) ? pids : undefined;
    });
    expect(now).to.include(survivor);
    expect((await get(port, '/health')).status).to.equal(200);
    // The new worker is told that the primary has started: every worker is ready (a connection each, in turn).
    const answers = await Promise.all(Array.from({ length: 6 }, () => readyChecks(port)));
    expect(answers).to.deep.equal(Array(6).fill({ status: 200, checks: { database: true, primary: true } }));
  });

  it('stops the workers and itself on SIGTERM, exiting 0', async () => {
    const pids = workerPids(service.child.pid!);
    service.child.kill('SIGTERM');
    expect(await service.exited).to.deep.equal({ code: 0, signal: null });
    for (const pid of pids) expect(fs.existsSync(`/proc/${pid}`), `worker ${pid} still running`).to.equal(false);
  });
});
