/**
 * Pending timers survive kill -9 (docs/payments.md, "Timers"): main.ts holds a sandbox wallet payment and leaves
 * another unpaid, their hold-expiry and abandonment timers are stored, the process is killed with SIGKILL before
 * either is due, and a new process on the same database fires both: the held transaction ends CANCELLED by the hold
 * timeout, the unpaid one FAILED as abandoned.
 */
import { expect } from 'chai';
import pg from 'pg';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { until } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';
import { demoCredentials, demoHubHeaders, holdDemoWalletPayment } from '../../support/payments-demo.js';

describe('payment hub: a pending hold timer after kill -9 (main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  const suite = mainSuite('payments-timer');

  const start = () =>
    suite.start({
      PORT: '0',
      SEED_DEMO: 'true',
      PAYMENTS_HOLD_TIMEOUT_SECONDS: '12',
      // The smallest abandonment delay the configuration takes.
      PAYMENTS_ABANDON_AFTER_SECONDS: '60',
    });
  const query = async (sql: string, params: unknown[]) => {
    const client = new pg.Client({ connectionString: suite.db.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };

  it('fires the hold timeout and the abandonment in the next process', async () => {
    const first = await start();
    const creds = await demoCredentials(suite.dataDir);
    const base = `http://127.0.0.1:${first.port}`;
    const headers = demoHubHeaders(creds, `kill-9-${Date.now()}`);
    const held = await holdDemoWalletPayment(base, creds, 'KILL-9', 'held across kill -9');
    const id = held.transactionId;
    expect(held.page).to.include('<strong id="status">HOLDING</strong>');
    await until('the stored hold timer', async () => {
      const rows = await query('SELECT fired_at FROM payments_timers WHERE timer_id = $1', [`${id}:hold-expiry`]);
      return rows.length === 1 ? rows[0] : undefined;
    });

    // A second payment nobody pays: its abandonment timer is pending too.
    const unpaidHash = hmacSha256Hex(creds.payments.secretKey, 'KILL-9-B|REF-KILL-9-B|150000|VND|1772359200000');
    const unpaid = await fetch(`${base}/api/payments/v1/transactions`, {
      method: 'POST',
      headers: { ...headers, 'X-Request-ID': `kill-9-b-${Date.now()}` },
      body: JSON.stringify({
        orderId: 'KILL-9-B',
        referenceId: 'REF-KILL-9-B',
        amount: 150000,
        currency: 'VND',
        description: 'left unpaid across kill -9',
        paymentMethodCode: 'WALLET',
        providerId: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
        orderInfo: { orderCreatedAt: 1772359200000 },
        secureHash: unpaidHash,
      }),
    });
    const unpaidId = ((await unpaid.json()) as { data: { transaction: { id: string } } }).data.transaction.id;
    await until('the stored abandonment timer', async () => {
      const rows = await query('SELECT fired_at FROM payments_timers WHERE timer_id = $1', [`${unpaidId}:abandon`]);
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
    const abandoned = await until(
      'the abandonment in the new process',
      async () => {
        const res = await fetch(
          `http://127.0.0.1:${second.port}/api/payments/v1/transactions?transactionId=${unpaidId}`,
          { headers },
        );
        const item = ((await res.json()) as { data?: { items: { status: string }[] } }).data?.items[0];
        return item?.status === 'FAILED' ? item : undefined;
      },
      90_000,
    );
    expect(abandoned.status).to.equal('FAILED');
    const events = await query('SELECT data FROM events WHERE stream_name = $1 ORDER BY revision', [
      `transaction-${unpaidId}`,
    ]);
    expect(events.at(-1)!.data).to.deep.include({ reason: 'ABANDONED', errorCode: 'ABANDONED' });
  });
});
