/**
 * Faults of the fan-out on a busy machine (issue 31, item 4; docs/projections.md, "Recovery"; docs/testing.md, "Faults
 * under CPU pressure"): the api, the relay and the projectors as separate main.ts processes on a nats-server of the
 * test's own (a standby beside each holder), 80 reserve clients in a process of their own, and a CPU hog keeping the
 * cores busy beside them. Each fault happens under that load; once the load and the hog stop, every projector must
 * have caught up with the event store within 15 s, with no process restarted by hand (a killed one is replaced, as a
 * supervisor would, while its standby takes over) and nothing lost: every accepted reservation in shop_reservations,
 * as many rows as the store holds reservations, and each pool's reserved count in shop_voucher_inventory equal to the
 * stored events'. FANOUT_TRACE=1 prints each projector's lag every second after the load; FANOUT_LOG_DIR=<dir> keeps
 * the processes' logs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { until, type MainProcess } from '../../support/main-process.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { machinePressure, startCpuHog, type MachinePressure } from '../../support/cpu-hog.js';
import { startFanoutProcesses, type FanoutProcesses } from '../../support/fanout-processes.js';
import { startOwnNatsServer, type OwnNatsServer } from '../../support/own-nats-server.js';
import { checkpointsCaughtUp } from '../../support/projections-caught-up.js';
import { reserveLoad, reserveScene, type ReserveLoadResult, type ReserveScene } from '../../support/reserve-load.js';
import { operatorToken } from '../../api/support.js';
import { machineBusySeconds } from '../../../bench/cpu-use.js';

/** The bound: converged this long after the load ended. */
const convergedWithinMs = 15_000;
/** The load: reserve clients (the 80). */
const clients = Number(process.env.FANOUT_CLIENTS ?? 80);
/**
 * The hog: four processes busy all the time (the two CPU hogs and two busy database backends), so that the
 * run queue is about 10 on two cores.
 */
const hog = {
  processes: Number(process.env.FANOUT_HOG_PROCESSES ?? 4),
  share: Number(process.env.FANOUT_HOG_SHARE ?? 1),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe('the fan-out under CPU pressure (api, relay and projector processes, own nats-server, a CPU hog)', function () {
  this.timeout(300_000);
  let nats: OwnNatsServer;
  let app: TestApp;
  let dataDir: string;
  let fanout: FanoutProcesses;
  let scene: ReserveScene;
  const accepted: ReserveLoadResult['accepted'] = [];

  before(async function () {
    nats = await startOwnNatsServer(this);
    app = await startTestApp({ env: { NATS_URL: nats.url }, background: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanout-pressure-'));
    fanout = await startFanoutProcesses(app, { natsUrl: nats.url, dataDir, operatorToken });
    scene = await reserveScene(fanout.baseUrl);
  });
  after(async () => {
    const logs = process.env.FANOUT_LOG_DIR;
    if (logs)
      for (const [i, { role, p }] of (fanout?.all() ?? []).entries())
        fs.writeFileSync(path.join(logs, `${i}-${role}.log`), p.output());
    await fanout?.stop();
    await app?.stop();
    await nats?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * FANOUT_TRACE: how far each of the shop's projectors (the load's) is behind, the most first, in events of any type: its checkpoint's sequence
   * number against the store's last (the global sequence numbers events as they are appended; a rolled back append
   * leaves a gap). Cheap enough to read every second without loading the database it measures.
   */
  async function lags(): Promise<string> {
    const { rows } = await app.container.knex.raw<{ rows: { projector: string; behind: string }[] }>(
      `SELECT projector, (SELECT last_value FROM event_transaction_sequence) - split_part(position, ':', 2)::bigint AS behind
       FROM projection_checkpoints ORDER BY 2 DESC NULLS FIRST`,
    );
    return rows
      .filter((r) => r.projector.includes('shop') && Number(r.behind) > 0)
      .map((r) => `${r.projector} ${r.behind}`)
      .join(', ');
  }

  /**
   * Waits (up to a minute, to measure a miss too) until every projector is at the event store's last event of its
   * types, then checks that nothing was lost; answers how long after `since` it converged.
   */
  async function convergence(since: number): Promise<number> {
    const { knex } = app.container;
    const types = app.container.projections.eventTypes();
    let busy = machineBusySeconds();
    const trace = process.env.FANOUT_TRACE
      ? setInterval(() => {
          const b = machineBusySeconds();
          const cpu = b - busy;
          busy = b;
          void lags().then((l) =>
            console.log(`      +${((Date.now() - since) / 1000).toFixed(0)} s: cpu ${cpu.toFixed(2)} ${l || '-'}`),
          );
        }, 1000)
      : undefined;
    try {
      // Until caught up with a log that no longer grows: on a very busy machine the api may still be appending what
      // the load sent last (and the reactors what it caused) when the load's process has ended.
      for (let stored = -1; ;) {
        await checkpointsCaughtUp(knex, types, types.size, 60_000);
        const [{ n }] = await knex('events').count<{ n: string }[]>('* as n');
        if (Number(n) === stored) break;
        stored = Number(n);
      }
    } finally {
      clearInterval(trace);
    }
    const ms = Date.now() - since;
    const keys = new Set<string>(
      await knex('shop_reservations').where({ merchant_id: scene.merchant.merchantId }).pluck('reservation_key'),
    );
    const stored = await knex('events')
      .where({ type: 'ShopReservationPlaced' })
      .whereRaw(`data->>'merchantId' = ?`, [scene.merchant.merchantId])
      .count<{ n: string }[]>('* as n');
    if (keys.size !== Number(stored[0]!.n)) console.log(`      LOST: ${await lost(keys)}`);
    expect(keys.size, 'reservations projected, of those stored').to.equal(Number(stored[0]!.n));
    expect(accepted.filter((a) => !keys.has(a.reservationKey)).length, 'accepted reservations not projected').to.equal(
      0,
    );
    for (const pool of scene.pools) {
      const [{ n }] = await knex('events')
        .where({ type: 'VoucherStockReserved', stream_name: `voucherPool-${pool.poolId}` })
        .sum<{ n: string }[]>({ n: knex.raw(`(data->>'quantity')::int`) });
      const row = await knex('shop_voucher_inventory').where({ pool_id: pool.poolId }).first();
      expect(row.reserved_quantity, `pool ${pool.poolId} reserved`).to.equal(Number(n ?? 0));
    }
    return ms;
  }

  /** What a loss looks like, to tell where it came from: the missing events' positions, the checkpoint, dead letters. */
  async function lost(keys: Set<string>): Promise<string> {
    const { knex } = app.container;
    const placed = await knex('events')
      .where({ type: 'ShopReservationPlaced' })
      .whereRaw(`data->>'merchantId' = ?`, [scene.merchant.merchantId])
      .orderBy(['transaction_id', 'transaction_sequence'])
      .select(
        knex.raw(`transaction_id::text || ':' || transaction_sequence AS position, data->>'reservationKey' AS key`),
      );
    const missing = (placed as { position: string; key: string }[]).filter((e) => !keys.has(e.key));
    const checkpoint = await knex('projection_checkpoints').where({ projector: 'shop-reservations' }).first();
    const dead = await knex('dead_letters').where({ projector: 'shop-reservations' }).count<{ n: string }[]>('* as n');
    return JSON.stringify({
      missing: missing.length,
      first: missing.slice(0, 3).map((e) => e.position),
      last: missing.at(-1)?.position,
      stored: placed.length,
      checkpoint: checkpoint?.position,
      generation: checkpoint?.generation,
      dead: dead[0]?.n,
    });
  }

  /**
   * Reserve load for `loadMs` beside the hog while `fault` runs (given the load's start); once both stopped, the
   * convergence (asserted within 15 s) and what was lost (nothing); prints what it measured.
   */
  async function faultUnderPressure(name: string, loadMs: number, fault: (started: number) => Promise<void>) {
    const hogs = startCpuHog(hog);
    const reading = machinePressure();
    let result: ReserveLoadResult;
    let pressure: MachinePressure;
    try {
      const started = Date.now();
      const load = reserveLoad(fanout.api.port, scene, { clients, durationMs: loadMs });
      await fault(started);
      result = await load;
      accepted.push(...result.accepted);
    } finally {
      pressure = reading.end();
      await hogs.stop();
    }
    const ended = Date.now();
    expect([...result.statuses.keys()], 'answers to the reserves').to.deep.equal([200]);
    expect(result.accepted.length, 'reserves accepted under the load').to.be.greaterThan(500);
    const ms = await convergence(ended);
    console.log(
      `      ${name}: ${result.accepted.length} reserves in ${(result.elapsedMs / 1000).toFixed(1)} s ` +
        `(${JSON.stringify([...result.statuses])}); run queue ${pressure.runQueue.toFixed(1)}, machine busy ` +
        `${(pressure.busy * 100).toFixed(0)} %, load average ${pressure.loadAverage.toFixed(1)}, hog ` +
        `${hogs.processes} × ${(hog.share * 100).toFixed(0)} % (got ${(hogs.achievedShare() * 100).toFixed(0)} % ` +
        `each) → converged ${ms} ms after the load ended`,
    );
    expect(ms, 'converged after the load ended (ms)').to.be.lessThan(convergedWithinMs);
  }

  /** The holder of the role's work, which must exist. */
  const holder = async (role: 'relay' | 'projector'): Promise<MainProcess> => {
    const p = await fanout.holder(role);
    expect(p, `a ${role} process at work`).to.not.equal(undefined);
    return p!;
  };

  it('relay and projector holders killed -9 twice under load: converged within 15 s, nothing lost', async () => {
    await faultUnderPressure('kill -9 of the relay and projector holders, twice', 30_000, async (started) => {
      for (const at of [8_000, 18_000]) {
        await sleep(started + at - Date.now());
        for (const role of ['relay', 'projector'] as const) {
          const p = await holder(role);
          p.child.kill('SIGKILL');
          await p.exited;
        }
        // The supervisor starts new ones; the standbys took over meanwhile.
        await Promise.all([fanout.start('relay'), fanout.start('projector')]);
      }
    });
  });

  it('NATS killed -9 for 40 s under load: converged within 15 s of the load’s end, nothing lost', async () => {
    await faultUnderPressure('NATS down 40 s', 50_000, async (started) => {
      await sleep(started + 3_000 - Date.now());
      await nats.kill();
      await sleep(started + 43_000 - Date.now());
      await nats.start();
    });
  });

  it('relay and projector holders frozen (SIGSTOP) past their leases under load: converged within 15 s, nothing lost', async () => {
    await faultUnderPressure('relay and projector holders frozen 15 s', 30_000, async (started) => {
      await sleep(started + 5_000 - Date.now());
      const frozen = [await holder('relay'), await holder('projector')];
      for (const p of frozen) p.child.kill('SIGSTOP');
      const frozenAt = Date.now();
      // Past the 10 s leases the standbys take over; the frozen projector's open pulls take messages meanwhile.
      for (const role of ['relay', 'projector'] as const)
        await until(
          `the ${role} standby to take over`,
          async () => {
            const now = await fanout.holder(role);
            return now && !frozen.includes(now) ? true : undefined;
          },
          30_000,
        );
      await sleep(frozenAt + 15_000 - Date.now());
      for (const p of frozen) p.child.kill('SIGCONT');
    });
  });
});
