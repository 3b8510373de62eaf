/**
 * A suite that runs main.ts itself (crash, restart, worker and demo tests): a database and a data directory of the
 * suite's own, made before its tests; after them every process it started is stopped (SIGTERM, SIGKILL if it has
 * not exited within 10 s; a process a test stopped with SIGSTOP is continued first), then the database is dropped
 * and the directory removed. Call it in the describe before registering other hooks whose resources the processes
 * use (an own nats-server): mocha runs `after` hooks in the order they were registered.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMain, type MainProcess } from './main-process.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

export interface MainSuite {
  /** The suite's database (there once its before hook ran). */
  readonly db: TestDatabase;
  readonly dataDir: string;
  /** main.ts on the suite's database and data directory (DATABASE_URL, DATA_DIR, overridable by `env`). */
  start(env?: Record<string, string>, options?: Parameters<typeof startMain>[1]): Promise<MainProcess>;
}

const running = (p: MainProcess) => p.child.exitCode === null && p.child.signalCode === null;

/** SIGTERM (a frozen process continued first), SIGKILL when it has not exited within 10 s. */
export async function stopMainProcess(p: MainProcess): Promise<void> {
  if (!running(p)) return;
  p.child.kill('SIGCONT');
  p.child.kill('SIGTERM');
  const killed = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  await p.exited;
  clearTimeout(killed);
}

export function mainSuite(prefix: string): MainSuite {
  let db: TestDatabase | undefined;
  let dataDir = '';
  const processes: MainProcess[] = [];
  before(async () => {
    db = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  });
  after(async () => {
    await Promise.all(processes.map(stopMainProcess));
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get db() {
      if (!db) throw new Error('the suite database is made in its before hook');
      return db;
    },
    get dataDir() {
      return dataDir;
    },
    async start(env = {}, options = {}) {
      const p = await startMain({ DATABASE_URL: this.db.url, DATA_DIR: dataDir, ...env }, options);
      processes.push(p);
      return p;
    },
  };
}
