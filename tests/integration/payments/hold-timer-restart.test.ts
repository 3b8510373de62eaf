/**
 * A pending hold timer survives kill -9 (docs/payments.md, "Timers"): main.ts holds a sandbox wallet payment, its
 * hold-expiry timer is stored, the process is killed with SIGKILL before it is due, and a new process on the same
 * database fires it: the transaction ends CANCELLED by the hold timeout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { startMain, until, type MainProcess } from '../../support/main-process.js';
import { demoCredentials, demoHubHeaders, holdDemoWalletPayment } from '../../support/payments-demo.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

describe('payment hub: a pending hold timer after kill -9 (main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let dataDir: string;
  const services: MainProcess[] = [];

  before(async () => {
    db = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-timer-'));
  });
  after(async () => {
    for (const s of services)
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const s = await startMain({
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: '0',
      SEED_DEMO: 'true',
      PAYMENTS_HOLD_TIMEOUT_SECONDS: '12',
    });
    services.push(s);
    return s;
  };
  const query = async (sql: string, params: unknown[]) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };

  it('fires the hold timeout in the next process', async () => {
    const first = await start();
    const creds = await demoCredentials(dataDir);
    const base = `http://127.0.0.1:${first.port}`;
    const headers = demoHubHeaders(creds, `kill-9-${Date.now()}`);
    const held = await holdDemoWalletPayment(base, creds, 'KILL-9', 'held across kill -9');
    const id = held.transactionId;
    expect(held.page).to.include('<strong id="status">HOLDING</strong>');
    await until('the stored hold timer', async () => {
      const rows = await query('SELECT fired_at FROM payments_timers WHERE timer_id = $1', [`${id}:hold-expiry`]);
      return rows.length === 1 ? rows[0] : undefined;
    });

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).to.equal('SIGKILL');
    const before = await query('SELECT type FROM events WHERE stream_name = $1 ORDER BY revision', [
      `transaction-${id}`,
    ]);
    expect(before.map((r) => r.type)).to.deep.equal([
      'TransactionInitiated',
      'TransactionProcessing',
      'TransactionHeld',
    ]);

    const second = await start();
    const ended = await until(
      'the hold timeout in the new process',
      async () => {
        const res = await fetch(`http://127.0.0.1:${second.port}/api/payments/v1/transactions?transactionId=${id}`, {
          headers,
        });
        const item = ((await res.json()) as { data?: { items: { status: string }[] } }).data?.items[0];
        return item?.status === 'CANCELLED' ? item : undefined;
      },
      60_000,
    );
    expect(ended.status).to.equal('CANCELLED');
  });
});
