/**
 * The fan-out as production runs it, for the fault tests under pressure (docs/testing.md, "Faults under CPU
 * pressure"): main.ts as separate processes on one database and NATS server, an api process (ROLES=api) and, for the
 * relay and the projectors each, processes of their own (ROLES=relay, ROLES=projector; a standby beside the holder, as
 * two replicas would run), each reporting its roles on its health port. A test kills, freezes or starts them; stop()
 * ends every one it started.
 */
import type { TestApp } from './app.js';
import { startMain, type MainProcess } from './main-process.js';
import { stopMainProcess } from './main-suite.js';

export type FanoutRole = 'relay' | 'projector';

export interface FanoutProcesses {
  api: MainProcess;
  baseUrl: string;
  /** Starts one more process of the role: a standby, or what a supervisor starts after a crash. */
  start(role: FanoutRole): Promise<MainProcess>;
  /** The processes of the role that have not exited. */
  running(role: FanoutRole): MainProcess[];
  /**
   * The process of the role that does its work now: the relay that holds the relay's lease, the projector process
   * that applies the most projectors; undefined when none does (or none answers its /ready within 5 s).
   */
  holder(role: FanoutRole): Promise<MainProcess | undefined>;
  /** Every process started, with its role: their logs (JSON lines) tell what happened. */
  all(): { role: FanoutRole | 'api'; p: MainProcess }[];
  /** How many projectors the process applies, as its /ready says (0 when it does not answer within 5 s). */
  applying(p: MainProcess): Promise<number>;
  stop(): Promise<void>;
}

interface Ready {
  roles: { relay?: { active: boolean }; projectors?: Array<{ projector: string; applying: boolean }> };
}

const alive = (p: MainProcess) => p.child.exitCode === null && p.child.signalCode === null;

/**
 * Starts the api process and two processes of each fan-out role (one after the other, so the first of each takes the
 * leases and the second stands by), on the test app's database, stream and subject prefix; the test app (started with
 * `background: false`) runs no role.
 */
export async function startFanoutProcesses(
  app: TestApp,
  options: { natsUrl: string; dataDir: string; operatorToken: string; env?: Record<string, string> },
): Promise<FanoutProcesses> {
  const { config } = app.container;
  const env = {
    DATABASE_URL: app.db.url,
    DATA_DIR: options.dataDir,
    NATS_URL: options.natsUrl,
    NATS_STREAM: config.NATS_STREAM,
    NATS_SUBJECT_PREFIX: config.NATS_SUBJECT_PREFIX,
    SEED_DEMO: 'false',
    OPERATOR_TOKENS: `alice=${options.operatorToken}`,
    ...options.env,
  };
  const processes: { role: FanoutRole | 'api'; p: MainProcess }[] = [];
  const launch = async (role: FanoutRole | 'api') => {
    const p = await startMain({
      ...env,
      ROLES: role,
      ...(role === 'api' ? { PORT: '0' } : { HEALTH_PORT: '0' }),
    });
    processes.push({ role, p });
    return p;
  };
  const ready = async (p: MainProcess): Promise<Ready | undefined> => {
    const res = await fetch(`http://127.0.0.1:${p.port}/ready`, { signal: AbortSignal.timeout(5000) }).catch(
      () => undefined,
    );
    return res ? ((await res.json().catch(() => undefined)) as Ready | undefined) : undefined;
  };
  const applying = async (p: MainProcess) =>
    alive(p) ? ((await ready(p))?.roles.projectors?.filter((s) => s.applying).length ?? 0) : 0;
  const running = (role: FanoutRole) => processes.filter((x) => x.role === role && alive(x.p)).map((x) => x.p);
  const stop = () => Promise.all(processes.map(({ p }) => stopMainProcess(p))).then(() => undefined);
  let api: MainProcess;
  try {
    api = await launch('api');
    for (const role of ['relay', 'relay', 'projector', 'projector'] as const) await launch(role);
  } catch (error) {
    await stop(); // the test's after hook has nothing to stop these by
    throw error;
  }
  return {
    api,
    baseUrl: `http://127.0.0.1:${api.port}`,
    start: launch,
    running,
    applying,
    all: () => [...processes],
    async holder(role) {
      const candidates = running(role);
      if (role === 'relay') {
        const active = await Promise.all(candidates.map(async (p) => (await ready(p))?.roles.relay?.active === true));
        return candidates.find((_, i) => active[i]);
      }
      const counts = await Promise.all(candidates.map(applying));
      const most = Math.max(0, ...counts);
      return most === 0 ? undefined : candidates[counts.indexOf(most)];
    },
    stop,
  };
}
