import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import type { Knex } from 'knex';
import { createKnex, startEmbeddedPostgres, type EmbeddedDatabase } from '../../infrastructure/shared/database.js';

/**
 * Test databases. With DATABASE_URL set, each test database is a fresh
 * database created on that server; otherwise one embedded PostgreSQL is
 * started for the whole run. Either way every suite gets its own database.
 */
let embedded: EmbeddedDatabase | undefined;
let serverUrl: string | undefined;

async function server(): Promise<string> {
  if (serverUrl) return serverUrl;
  if (process.env.DATABASE_URL) {
    serverUrl = process.env.DATABASE_URL;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-test-pg-'));
    embedded = await startEmbeddedPostgres(dir, 54400 + Math.floor(Math.random() * 500), 'postgres', false);
    serverUrl = embedded.url;
  }
  return serverUrl;
}

export interface TestDatabase {
  url: string;
  knex: Knex;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = new URL(await server());
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  const knex = createKnex(url.toString(), 20);
  return {
    url: url.toString(),
    knex,
    async drop() {
      await knex.destroy();
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function stopTestServer(): Promise<void> {
  if (embedded) await embedded.stop();
  embedded = undefined;
  serverUrl = undefined;
}
