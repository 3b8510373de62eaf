import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../infrastructure/shared/database.js';

/**
 * A fresh database for one benchmark run: on DATABASE_URL's server when set,
 * else on an embedded PostgreSQL started for the run. drop() removes it.
 */
export async function createBenchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  let server = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!server) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
    const embedded = await startEmbeddedPostgres(dir, 55000 + Math.floor(Math.random() * 1000), 'postgres', false);
    server = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      await stopEmbedded?.();
    },
  };
}
