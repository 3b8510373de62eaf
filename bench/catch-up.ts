/**
 * npm run bench:catch-up — how fast projectors far behind catch up on NATS (docs/projections.md, "Catching up"). The
 * read-model projectors are registered on an empty log, then POOLS voucher pools (bench/catalog-data.ts, as
 * bench:catalog loads them) are appended and relayed to a JetStream stream of the run's own, and a projection runner
 * started afresh (this process: nothing else runs in it) applies the backlog. catch_up_eps = events appended / seconds
 * from the runner's start until every projector's checkpoint passed the last event of its types; each projector's
 * longest event-loop delay is printed too. Done for each MODE: `store` (the runner reads the event store while it is
 * more than 2,000 events behind (the default)) and `bus` (it never does: every event through the NATS consumer), quiet and then
 * with HOGS processes beside it that each spin a core (default 2: both cores of the machine busy), each on a fresh
 * database. Every run prints the machine's load average and the time of a fixed CPU loop taken just before it.
 * Last lines: catch-up: mode=<m> hogs=<n> events=<n> catch_up_eps=<x> max_loop_delay_ms=<y>
 *
 * CPU_PROFILE_DIR=<dir> writes each run's CPU profile of the runner's process (this one).
 *
 * Env: POOLS (30000), CAMPAIGNS (POOLS / 50), MODES (store,bus), HOGS (2), NATS_URL (required), DATABASE_URL (else
 * embedded).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { contextOfEventType, projectors } from '../container.js';
import { PostgresEventStore } from '../infrastructure/shared/eventstore/postgres-event-store.js';
import { createKnex } from '../infrastructure/shared/database.js';
import { NatsEventBus } from '../infrastructure/shared/messaging/nats-event-bus.js';
import { createLogger } from '../infrastructure/shared/logger.js';
import { Relay } from '../infrastructure/shared/messaging/relay.js';
import { migrate } from '../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../infrastructure/shared/numeric-ids.js';
import { ProjectionRunner } from '../infrastructure/shared/projection-runner.js';
import { generateCatalog } from './catalog-data.js';
import { machineSpeed } from './catalog-probes.js';
import { profileCpu } from './cpu-profile.js';
import { startBenchServer } from './database.js';
import { deleteStream } from './nats-streams.js';

const natsUrl = process.env.NATS_URL;
if (!natsUrl) throw new Error('bench:catch-up measures the NATS path: set NATS_URL');
const poolTotal = Number(process.env.POOLS ?? 30_000);
const campaignTotal = Number(process.env.CAMPAIGNS ?? Math.ceil(poolTotal / 50));
const modes = (process.env.MODES ?? 'store,bus').split(',') as ('store' | 'bus')[];
const hogCount = Number(process.env.HOGS ?? 2);

/** Processes that each keep a core busy until stopped. */
function startHogs(count: number): { stop(): void } {
  const hogs: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return { stop: () => hogs.forEach((h) => h.kill('SIGKILL')) };
}

// The runner's catch-ups, and anything going wrong, on stderr.
const logger = createLogger(process.env.LOG_LEVEL ?? 'info');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(server: Awaited<ReturnType<typeof startBenchServer>>, mode: 'store' | 'bus', hogs: number) {
  const db = await server.create('bench_catch_up');
  const knex = createKnex(db.url, 20);
  const stream = `bench_catch_up_${randomBytes(3).toString('hex')}`;
  const bus = await NatsEventBus.connect(natsUrl!, {
    stream,
    subjectPrefix: stream,
    contextOf: contextOfEventType,
    filterByContext: true,
    fetchLingerMs: 25,
  });
  const store = new PostgresEventStore(knex, { pollIntervalMs: 100 });
  const runnerOf = () =>
    new ProjectionRunner(
      { knex, store, bus, projectors, logger },
      { catchUpThreshold: mode === 'store' ? undefined : Infinity, metricsIntervalMs: 1000 },
    );
  try {
    await migrate(knex);
    // Registered on the empty log: no rebuild later, the backlog goes through the catch-up.
    const first = runnerOf();
    await first.start();
    await first.stop();
    const ids = new PostgresNumericIds(knex);
    const catalog = generateCatalog(
      { campaigns: campaignTotal, pools: poolTotal, now: Date.now() },
      {
        campaigns: await ids.next('campaign', campaignTotal),
        banners: await ids.next('campaignBanner', campaignTotal * 4),
        pools: await ids.next('voucherPool', poolTotal),
      },
    );
    const writes = [...catalog.campaignWrites, ...catalog.poolWrites];
    for (let i = 0; i < writes.length; i += 2000) await store.appendMany(writes.slice(i, i + 2000));
    const events = writes.reduce((n, w) => n + w.events.length, 0);
    const lastOf = new Map<string, string>();
    for (const e of (
      await knex.raw<{ rows: { type: string; last: string }[] }>(
        `SELECT type, max(lpad(transaction_id::text, 20, '0') || ':' || lpad(transaction_sequence::text, 20, '0')) AS last
       FROM events GROUP BY type`,
      )
    ).rows)
      lastOf.set(e.type, e.last);
    const relay = new Relay({ store, bus, knex }, { pollIntervalMs: 50 });
    relay.start();
    const head = [...lastOf.values()].reduce((a, b) => (a > b ? a : b));
    while ((await bus.lastPublishedPosition()) !== head) await sleep(200);
    await relay.stop();

    const hog = startHogs(hogs);
    await sleep(1000);
    const speed = machineSpeed();
    const load = os.loadavg()[0]!;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const runner = runnerOf();
    const profile = await profileCpu(process.env.CPU_PROFILE_DIR, `catch-up-${mode}-${hogs}`);
    const started = performance.now();
    delay.enable();
    await runner.start();
    // Each projector is done once its checkpoint passed the last event of its types (or it applies none of them).
    const wanted = new Map(
      projectors.map((p) => {
        const lasts = [...p.eventTypes].map((t) => lastOf.get(t)).filter((x): x is string => x !== undefined);
        return [p.name, lasts.length === 0 ? '' : lasts.reduce((a, b) => (a > b ? a : b))];
      }),
    );
    for (;;) {
      const rows: { projector: string; position: string | null }[] = await knex('projection_checkpoints').select(
        'projector',
        'position',
      );
      const behind = rows.filter((r) => (r.position ?? '') < (wanted.get(r.projector) ?? ''));
      if (behind.length === 0) break;
      await sleep(100);
    }
    const seconds = (performance.now() - started) / 1000;
    const loadAfter = os.loadavg()[0]!;
    delay.disable();
    await profile.stop();
    hog.stop();
    await runner.stop();
    console.log(
      `  mode=${mode} hogs=${hogs}: ${events} events caught up in ${seconds.toFixed(1)} s (${(events / seconds).toFixed(0)} events/s); ` +
        `longest event-loop delay ${(delay.max / 1e6).toFixed(0)} ms; load average ${load.toFixed(1)} before, ${loadAfter.toFixed(1)} after; fixed loop ${speed.toFixed(0)} ms`,
    );
    return { mode, hogs, events, eps: events / seconds, maxDelayMs: delay.max / 1e6, loadAfter };
  } finally {
    await bus.close();
    await deleteStream(natsUrl!, stream).catch(() => undefined);
    await store.close();
    await knex.destroy();
    await db.drop();
  }
}

const server = await startBenchServer();
const results = [];
try {
  for (const hogs of [0, hogCount]) for (const mode of modes) results.push(await run(server, mode, hogs));
} finally {
  await server.stop();
}
for (const r of results)
  console.log(
    `catch-up: mode=${r.mode} hogs=${r.hogs} events=${r.events} catch_up_eps=${r.eps.toFixed(0)} max_loop_delay_ms=${r.maxDelayMs.toFixed(0)} load=${r.loadAfter.toFixed(1)}`,
  );
