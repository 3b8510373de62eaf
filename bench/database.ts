import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../infrastructure/shared/database.js';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The PostgreSQL server of one benchmark run: DATABASE_URL's server when set,
 * else an embedded PostgreSQL started for the run. create() makes a fresh
 * database on it; stop() stops the embedded server.
 */
export async function startBenchServer(): Promise<{
  create(prefix: string): Promise<BenchDatabase>;
  stop(): Promise<void>;
}> {
  let server = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!server) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
    const embedded = await startEmbeddedPostgres(dir, 55000 + Math.floor(Math.random() * 1000), 'postgres', false);
    server = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  return {
    async create(prefix: string) {
      const name = `${prefix}_${randomBytes(4).toString('hex')}`;
      await admin(`CREATE DATABASE "${name}"`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
    },
    async stop() {
      await stopEmbedded?.();
    },
  };
}

/** A fresh database for one benchmark run, on a server of its own (startBenchServer); drop() removes both. */
export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const server = await startBenchServer();
  const db = await server.create(prefix);
  return {
    url: db.url,
    async drop() {
      await db.drop();
      await server.stop();
    },
  };
}
