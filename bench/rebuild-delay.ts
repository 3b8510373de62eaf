/**
 * node --import tsx bench/rebuild-delay.ts — how long a rebuild holds the event loop (docs/projections.md, "The event
 * loop"): POOLS voucher pools (bench/catalog-data.ts, as bench:catalog loads them) appended, then a projection runner
 * started afresh in this process rebuilds every read-model projector (PROJECTORS: a comma list of names, to rebuild
 * only those) from the store. Prints the rebuild's time, the longest event-loop delay and its 99th percentile
 * (perf_hooks.monitorEventLoopDelay, 10 ms resolution), the longest garbage collection and their sum, and the load
 * average. RUNS times (default 1), each on a fresh database.
 *
 * Env: POOLS (20000), PROJECTORS (all), RUNS (1), DATABASE_URL (else embedded).
 */
import os from 'node:os';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { projectors } from '../container.js';
import { createKnex } from '../infrastructure/shared/database.js';
import { PostgresEventStore } from '../infrastructure/shared/eventstore/postgres-event-store.js';
import { InProcessEventBus } from '../infrastructure/shared/messaging/in-process-event-bus.js';
import { migrate } from '../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../infrastructure/shared/numeric-ids.js';
import { ProjectionRunner } from '../infrastructure/shared/projection-runner.js';
import { generateCatalog } from './catalog-data.js';
import { startBenchServer } from './database.js';

const poolTotal = Number(process.env.POOLS ?? 20_000);
const only = (process.env.PROJECTORS ?? '').split(',').filter(Boolean);
const runs = Number(process.env.RUNS ?? 1);
const rebuilt = only.length > 0 ? projectors.filter((p) => only.includes(p.name)) : projectors;

const server = await startBenchServer();
try {
  for (let run = 0; run < runs; run++) {
    const db = await server.create('bench_rebuild_delay');
    const knex = createKnex(db.url, 20);
    const store = new PostgresEventStore(knex, { pollIntervalMs: 100 });
    const bus = new InProcessEventBus(store, knex);
    try {
      await migrate(knex);
      const ids = new PostgresNumericIds(knex);
      const campaigns = Math.ceil(poolTotal / 50);
      const catalog = generateCatalog(
        { campaigns, pools: poolTotal, now: Date.now() },
        {
          campaigns: await ids.next('campaign', campaigns),
          banners: await ids.next('campaignBanner', campaigns * 4),
          pools: await ids.next('voucherPool', poolTotal),
        },
      );
      const writes = [...catalog.campaignWrites, ...catalog.poolWrites];
      for (let i = 0; i < writes.length; i += 2000) await store.appendMany(writes.slice(i, i + 2000));
      const events = writes.reduce((n, w) => n + w.events.length, 0);

      const pauses: number[] = [];
      const gc = new PerformanceObserver((list) => list.getEntries().forEach((e) => pauses.push(e.duration)));
      gc.observe({ entryTypes: ['gc'] });
      const delay = monitorEventLoopDelay({ resolution: 10 });
      const runner = new ProjectionRunner({ knex, store, bus, projectors: rebuilt });
      delay.enable();
      const started = performance.now();
      await runner.start(); // resolves once every projector was rebuilt
      const seconds = (performance.now() - started) / 1000;
      delay.disable();
      gc.disconnect();
      await runner.stop();
      console.log(
        `rebuild-delay: projectors=${only.length > 0 ? only.join(',') : 'all'} events=${events} seconds=${seconds.toFixed(1)} ` +
          `max_loop_delay_ms=${(delay.max / 1e6).toFixed(0)} p99_ms=${(delay.percentile(99) / 1e6).toFixed(0)} ` +
          `gc_max_ms=${Math.max(0, ...pauses).toFixed(0)} gc_total_ms=${pauses.reduce((a, b) => a + b, 0).toFixed(0)} ` +
          `load=${os.loadavg()[0]!.toFixed(1)}`,
      );
    } finally {
      await bus.close();
      await store.close();
      await knex.destroy();
      await db.drop();
    }
  }
} finally {
  await server.stop();
}
