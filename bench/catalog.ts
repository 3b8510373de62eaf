/**
 * npm run bench:catalog — loads POOLS voucher pools across CAMPAIGNS
 * campaigns (bench/catalog-data.ts: Vietnamese names, brands, tags, a mix of
 * live, paused, draft, ended and presale campaigns) straight into the event
 * store with appendMany in batches of BATCH streams, while the relay and the
 * projection runner run in a process of their own (main.ts with
 * ROLES=relay,projector, as a deployment runs them; in-process bus, or NATS
 * when NATS_URL is set). project_eps = events appended / seconds from the
 * first append until every read-model projector's checkpoint reached the last
 * event of its types; the process managers given the same events (the
 * campaign-sale sync) are waited for too before the HTTP phase, their time
 * printed apart.
 * This is done LOADS times, each on a fresh database; the last line gives the
 * median, and each load is printed.
 *
 * Then the API is started as a deployment starts it (main.ts, ROLES=api,
 * API_WORKERS worker processes, default one per core, on the last load's
 * database), and CLIENTS concurrent keep-alive clients (a process of their
 * own, load-process.ts) send a mix of search (endpoint 3), voucher listing
 * (endpoint 1, with and without filters) and voucher detail (endpoint 2) GETs
 * over HTTP, REQUESTS of each, half of them with X-User-Id. Each client waits
 * THINK_MS on average (default 100; exponentially distributed, as independent
 * users do) between an answer and its next request, as an app does between
 * screens. That is done in PHASES phases, each with requests of its own; the
 * p95s of the last line are the medians of the phases'. Before them, as many
 * other requests of the same kinds (another seed) warm the service up, paced
 * the same way, as traffic it has been serving would have; a part of them is
 * then sent with one client alone (the time of a request itself). The first
 * phase's requests are also sent with the clients back to back (the server
 * saturated: its throughput, where latency is mostly queueing).
 *
 * This machine's speed varies by the minute (a fixed CPU loop took 3.9 to
 * 6.8 s in consecutive runs), so each load and phase prints the time of a
 * fixed loop taken just before it: the baseline to read its figures against.
 * Last line:
 * catalog: pools=<n> project_eps=<x> search_p95_ms=<a> list_p95_ms=<b> detail_p95_ms=<c>
 *
 * Env: POOLS (100000), CAMPAIGNS (2000), BATCH (2000), LOADS (3), CLIENTS (50),
 * REQUESTS (3000 per kind and phase), PHASES (3), THINK_MS (100), API_WORKERS
 * (cores), DATABASE_URL (else embedded), NATS_URL, KEEP_DB (keep the last
 * database to look into it afterwards), LOG_LEVEL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { newCommandContext } from '../application/shared/command-context.js';
import type { AppendResult, StreamWrite } from '../application/shared/event-store.js';
import { buildContainer, projectors, type Container, loadConfig, loadSecrets, type Secrets } from '../container.js';
import { createLogger, type Logger } from '../infrastructure/shared/logger.js';
import { PostgresNumericIds } from '../infrastructure/shared/numeric-ids.js';
import { freePort } from '../tests/support/free-port.js';
import { generateCatalog, type GeneratedCampaign } from './catalog-data.js';
import { caughtUp, machineSpeed, serverTimes, type ServerTimes } from './catalog-probes.js';
import { requestsFor, routes, type Kind } from './catalog-requests.js';
import { median, percentile, type LoadResult } from './load.js';
import { benchSecretsEnv } from './bench-secrets.js';
import { deleteStream } from './nats-streams.js';
import { startBenchServer, type BenchDatabase } from './database.js';
import { benchGatewayEnvironment, benchGatewayHeaders, registerBenchParty } from './gateway-party.js';
import { benchSettings } from './bench-settings.js';
import { loadInOwnProcess } from './load-process.js';

// The secrets, as the spawned servers read them from their environment and as this process uses them: the same keys.
const secretsEnv = benchSecretsEnv();
const poolTotal = Number(process.env.POOLS ?? 100_000);
const campaignTotal = Number(process.env.CAMPAIGNS ?? 2_000);
const batch = Number(process.env.BATCH ?? 2_000);
const clients = Number(process.env.CLIENTS ?? 50);
const perKind = Number(process.env.REQUESTS ?? 3_000);
const thinkMs = Number(process.env.THINK_MS ?? 100);
const loadCount = Number(process.env.LOADS ?? 3);
const phaseCount = Number(process.env.PHASES ?? 3);
const apiWorkers = Number(process.env.API_WORKERS ?? os.availableParallelism());

type BenchServer = Awaited<ReturnType<typeof startBenchServer>>;

/** Appends the writes in batches of `batch` streams; answers the count of events and the position of the last one. */
async function append(c: Container, writes: StreamWrite[]): Promise<{ events: number; last: string }> {
  let last = '';
  for (let i = 0; i < writes.length; i += batch) {
    const results: AppendResult[] = await c.store.appendMany(writes.slice(i, i + batch));
    for (const r of results) if (r.position > last) last = r.position;
  }
  return { events: writes.reduce((n, w) => n + w.events.length, 0), last };
}

/**
 * main.ts as npm start runs it, in a process of its own, with `roles` and the benchmark's database and secrets
 * (and `env`); resolves once `ready` says so.
 */
async function startMain(
  roles: string,
  databaseUrl: string,
  env: Record<string, string>,
  ready: () => Promise<boolean>,
): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      DATABASE_URL: databaseUrl,
      ROLES: roles,
      SEED_DEMO: 'false',
      GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
      ...benchSettings,
      ...secretsEnv,
      ...env,
    },
    stdio: 'inherit',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let tries = 0; !(await ready()); tries++) {
    if (child.exitCode !== null || tries > 300) throw new Error(`main.ts with ROLES=${roles} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The API (ROLES=api) on a port of its own, as it is deployed. */
async function startApi(databaseUrl: string): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const up = () =>
    fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
  return {
    port,
    ...(await startMain('api', databaseUrl, { PORT: String(port), API_WORKERS: String(apiWorkers) }, up)),
  };
}

interface Loaded {
  projectEps: number;
  db: BenchDatabase;
  c: Container;
  campaigns: GeneratedCampaign[];
  /** Stops the relay and projectors and this process's container; drops the database (unless `keep`) and the NATS stream. */
  dispose(keep?: boolean): Promise<void>;
}

/**
 * One load: a fresh database, the relay and the projectors in a process of their own (as a deployment runs them),
 * the catalog appended from this process, timed until every projector has caught up.
 */
async function load(server: BenchServer, secrets: Secrets, logger: Logger): Promise<Loaded> {
  const db = await server.create('bench_catalog');
  const nats: Record<string, string> = process.env.NATS_URL
    ? {
        NATS_URL: process.env.NATS_URL,
        NATS_STREAM: `BENCH_${randomBytes(3).toString('hex')}`,
        NATS_SUBJECT_PREFIX: `bench${randomBytes(3).toString('hex')}`,
      }
    : {};
  // This process only appends, as an importer does: no role runs here (startBackground is not called), and not the api
  // role either, whose read-model change feed would start and warm the catalog cache here in the middle of the load.
  // The roles' bus settings too: which events each projector is given (NATS_FILTER_BY_CONTEXT) decides when it is
  // caught up (caughtUp).
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    ROLES: 'projector',
    GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
    ...benchSettings,
    ...nats,
  });
  const c = await buildContainer({ config, databaseUrl: db.url, secrets, logger });
  // Every read-model projector has registered (the roles' process also registers its reactors and feeds).
  const checkpoints = async () => {
    const registered = new Set((await c.knex('projection_checkpoints').pluck('projector')) as string[]);
    return projectors.every((p) => registered.has(p.name));
  };
  const background = await startMain('relay,projector', db.url, nats, checkpoints);
  const ids = new PostgresNumericIds(c.knex);
  const catalog = generateCatalog(
    { campaigns: campaignTotal, pools: poolTotal, now: Date.now() },
    {
      campaigns: await ids.next('campaign', campaignTotal),
      banners: await ids.next('campaignBanner', campaignTotal * 4),
      pools: await ids.next('voucherPool', poolTotal),
    },
  );
  const speed = machineSpeed();

  const started = Date.now();
  const campaigns = await append(c, catalog.campaignWrites);
  const pools = await append(c, catalog.poolWrites);
  const appendSeconds = (Date.now() - started) / 1000;
  const events = campaigns.events + pools.events;
  console.log(
    `  appended ${events} events in ${appendSeconds.toFixed(1)} s (${(events / appendSeconds).toFixed(0)} events/s)`,
  );
  const appendedTypes = new Set(
    [...catalog.campaignWrites, ...catalog.poolWrites].flatMap((w) => w.events.map((e) => e.type)),
  );
  const finished = await caughtUp(c, pools.last > campaigns.last ? pools.last : campaigns.last, appendedTypes, started);
  // project_eps is the read models' (the projectors'); the process managers given the same events (the campaign-sale
  // sync: two commands per pool created) are waited for too, so that the HTTP phase finds the catalog settled.
  const readModels = new Set(projectors.map((p) => p.name));
  const projectSeconds = Math.max(...[...finished].filter(([name]) => readModels.has(name)).map(([, s]) => s));
  const settledSeconds = (Date.now() - started) / 1000;
  const projectEps = events / projectSeconds;
  console.log(
    `  ${projectors.length} read-model projectors caught up after ${projectSeconds.toFixed(1)} s: project_eps=${projectEps.toFixed(0)}; ` +
      `everything (process managers included) after ${settledSeconds.toFixed(1)} s ` +
      `(${[...finished].map(([name, s]) => `${name} ${s.toFixed(0)} s`).join(', ')}); machine: fixed loop ${speed.toFixed(0)} ms before, ${machineSpeed().toFixed(0)} ms after`,
  );
  const sizes = await Promise.all(
    projectors.flatMap((p) =>
      p.tables.map(async (t) => `${t.name}=${(await c.knex(t.name).count<{ n: string }[]>('* as n'))[0]!.n}`),
    ),
  );
  console.log(`  read models: ${sizes.join(' ')}`);
  // Every pool has an inventory row; fewer means the fan-out skipped events.
  const inventoried = Number((await c.knex('shop_voucher_inventory').count<{ n: string }[]>('* as n'))[0]!.n);
  if (inventoried !== poolTotal)
    console.log(
      `  WARNING: shop_voucher_inventory holds ${inventoried} of ${poolTotal} pools: events were skipped on the way to the projectors`,
    );
  return {
    projectEps,
    db,
    c,
    campaigns: catalog.campaigns,
    async dispose(keep = false) {
      await background.stop();
      await c.stop();
      if (keep) console.log(`  database kept: ${db.url}`);
      else await db.drop();
      if (nats.NATS_URL) await deleteStream(nats.NATS_URL, nats.NATS_STREAM!);
    },
  };
}

async function main(): Promise<void> {
  const logger = createLogger((process.env.LOG_LEVEL as 'error' | 'warn' | 'info' | undefined) ?? 'error');
  const secrets = loadSecrets({ NODE_ENV: 'production', DATA_DIR: '.data' }, secretsEnv);
  const server = await startBenchServer();
  console.log(
    `catalog: ${loadCount} loads of ${poolTotal} pools in ${campaignTotal} campaigns, each on a fresh database, ${batch} streams per appendMany, ` +
      `bus=${process.env.NATS_URL ? 'nats' : 'in-process'}`,
  );
  // Loads one after another; all but the last are dropped, the last one is served.
  const rates: number[] = [];
  let loaded: Loaded | undefined;
  for (let n = 1; n <= loadCount; n++) {
    await loaded?.dispose();
    console.log(` load ${n} of ${loadCount}`);
    loaded = await load(server, secrets, logger);
    rates.push(loaded.projectEps);
  }
  const { c, db } = loaded!;
  const projectEps = median(rates);
  console.log(
    `  project_eps of the loads: ${rates.map((r) => r.toFixed(0)).join(', ')}; median ${projectEps.toFixed(0)}`,
  );
  // What a database gets after a bulk load: statistics and visibility map brought up to date, and the written pages
  // flushed, now rather than by autovacuum and the checkpointer in the middle of the HTTP phase.
  const vacuumStarted = Date.now();
  await c.knex.raw('VACUUM ANALYZE');
  await c.knex.raw('CHECKPOINT');
  console.log(
    `  VACUUM ANALYZE and CHECKPOINT after the last load: ${((Date.now() - vacuumStarted) / 1000).toFixed(1)} s`,
  );

  const merchant = await c.services.shop.merchants.register(newCommandContext({ actor: { operator: 'bench' } }), {
    merchantId: 'BENCH',
    name: 'Bench',
  });
  await registerBenchParty(c.services.gateway);
  const api = await startApi(db.url);
  console.log(`  serving: main.ts, ROLES=api, API_WORKERS=${apiWorkers}, on port ${api.port}`);
  const headers = {
    ...benchGatewayHeaders,
    'x-promotion-api-key': merchant.apiKey.key,
    'x-merchant-id': 'BENCH',
    accept: 'application/json',
  };
  // The measured requests of each phase (a seed each), and as many others of the same kinds drawn apart (another
  // seed, so the measured ones find nothing of theirs kept) to warm the service up as serving traffic does: compiled
  // code, connections, plans, caches. All lists hold the kinds in the same order.
  const phases = Array.from({ length: phaseCount }, (_, i) =>
    requestsFor(loaded!.campaigns, headers, 7 + 2 * i, perKind),
  );
  const { requests, kinds } = phases[0]!;
  const warmUp = requestsFor(loaded!.campaigns, headers, 8, perKind);
  // Warm-up, then: one client alone (a request's own time), the measured phases (CLIENTS clients pausing THINK_MS
  // between requests), and the same clients back to back (the server saturated: what it can serve at most).
  await loadInOwnProcess(api.port, warmUp.requests, clients, { keepBodies: false, thinkMs });
  const aloneRun = await loadInOwnProcess(api.port, warmUp.requests.slice(0, Math.min(requests.length, 600)), 1, {
    keepBodies: false,
  });
  const alone = report('one client alone (warm-up requests)', aloneRun);
  for (const kind of ['search', 'list'] as const) {
    const byVariant = new Map<string, number[]>();
    aloneRun.latencyByIndex.forEach((ms, i) => {
      const variant = warmUp.variants[i]!;
      if (kinds[i] === kind) byVariant.set(variant, [...(byVariant.get(variant) ?? []), ms]);
    });
    const slowest = [...byVariant].sort(([, a], [, b]) => percentile(b, 50) - percentile(a, 50));
    console.log(
      `    ${kind} p50 by variant, slowest first: ${slowest.map(([v, ms]) => `${v}=${percentile(ms, 50).toFixed(1)}`).join(' ')}`,
    );
  }
  const timedBefore = await serverTimes(api.port, secrets.OPERATOR_TOKENS[0]!.token);
  const paced: Record<Kind, number>[] = [];
  for (const [i, phase] of phases.entries()) {
    const speed = machineSpeed();
    paced.push(
      report(
        `phase ${i + 1} of ${phaseCount}: ${clients} clients, ${thinkMs} ms on average between requests (machine: fixed loop ${speed.toFixed(0)} ms)`,
        await loadInOwnProcess(api.port, phase.requests, clients, { keepBodies: false, thinkMs }),
      ),
    );
  }
  const timedAfter = await serverTimes(api.port, secrets.OPERATOR_TOKENS[0]!.token);
  const within = (le: string) =>
    (['search', 'list', 'detail'] as const).map((kind) => {
      const count = (times: ServerTimes, bound: string) => times.get(`${routes[kind]}|${bound}`) ?? 0;
      const share =
        (count(timedAfter, le) - count(timedBefore, le)) / (count(timedAfter, '+Inf') - count(timedBefore, '+Inf'));
      return `${kind} ${(share * 100).toFixed(1)}%`;
    });
  console.log(
    `    answered by the server (its http_request_duration_seconds) within 5 ms, all phases: ${within('0.005').join(', ')}`,
  );
  const p95 = Object.fromEntries(
    (['search', 'list', 'detail'] as const).map((kind) => [kind, median(paced.map((phase) => phase[kind]))]),
  ) as Record<Kind, number>;
  console.log(
    `  p95 of the phases, median: search ${p95.search.toFixed(1)}, list ${p95.list.toFixed(1)}, detail ${p95.detail.toFixed(1)} ms`,
  );
  const saturated =
    thinkMs > 0
      ? report(
          `${clients} clients back to back`,
          await loadInOwnProcess(api.port, requests, clients, { keepBodies: false }),
        )
      : paced[0]!;

  function report(title: string, result: LoadResult): Record<Kind, number> {
    const p95: Record<Kind, number> = { search: 0, list: 0, detail: 0 };
    const statuses = [...result.statuses].map(([status, n]) => `${status}:${n}`).join(' ');
    console.log(
      `  ${title}: ${(result.latencyByIndex.length / (result.elapsedMs / 1000)).toFixed(0)} requests/s, statuses ${statuses}`,
    );
    for (const kind of ['search', 'list', 'detail'] as const) {
      const latencies = result.latencyByIndex.filter((_, i) => kinds[i] === kind);
      const failed = result.bodies.filter((b) => kinds[b.index] === kind && b.status !== 200);
      p95[kind] = percentile(latencies, 95);
      console.log(
        `    ${kind.padEnd(6)} p50_ms=${percentile(latencies, 50).toFixed(1)} p95_ms=${p95[kind].toFixed(1)} p99_ms=${percentile(latencies, 99).toFixed(1)} n=${latencies.length}` +
          (failed.length
            ? ` not_200=${failed.length} (e.g. ${failed[0]!.status} ${requests[failed[0]!.index]!.path})`
            : ''),
      );
    }
    return p95;
  }
  const health = await loadInOwnProcess(
    api.port,
    Array.from({ length: 3000 }, () => ({ method: 'GET' as const, path: '/health', headers: {} })),
    clients,
    { keepBodies: false },
  );
  console.log(
    `  cores=${os.cpus().length}; GET /health back to back: ${(3000 / (health.elapsedMs / 1000)).toFixed(0)} requests/s (the HTTP stack's ceiling here); ` +
      `saturated latency is mostly queueing (clients / throughput): detail p95 ${alone.detail.toFixed(1)} ms alone, ${saturated.detail.toFixed(1)} ms saturated`,
  );

  await api.stop();
  await loaded!.dispose(Boolean(process.env.KEEP_DB));
  await server.stop();
  console.log(
    `catalog: pools=${poolTotal} project_eps=${projectEps.toFixed(0)} search_p95_ms=${p95.search.toFixed(1)} list_p95_ms=${p95.list.toFixed(1)} detail_p95_ms=${p95.detail.toFixed(1)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
