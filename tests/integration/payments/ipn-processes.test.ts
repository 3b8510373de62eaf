/**
 * The IPN dispatcher as real processes (docs/ipn.md, "Guarantees"): main.ts with ROLES=relay,ipn on a NATS server of
 * the test's own. A dispatcher killed with SIGKILL between two retries: the next process sends the third attempt
 * when its stored backoff says, not sooner and not from scratch. Two dispatchers at once: no attempt of any
 * notification is sent twice. NATS killed and started again mid-run: every notification arrives.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { startMain, until, type MainProcess } from '../../support/main-process.js';
import { startOwnNatsServer, type OwnNatsServer } from '../../support/own-nats-server.js';
import { appendTransaction, onboardIpnMerchant, startReceiver, success, type Receiver } from '../../support/ipn.js';

describe('payment hub: IPN dispatcher processes (kill -9, two dispatchers, NATS restart)', function () {
  this.timeout(240_000);
  let nats: OwnNatsServer;
  let app: TestApp;
  let dataDir: string;
  const processes: MainProcess[] = [];
  const receivers: Receiver[] = [];

  before(async function () {
    nats = await startOwnNatsServer(this);
    // The test's own container: onboarding and appends only (no background roles), on the database the processes use.
    app = await startTestApp({ env: { NATS_URL: nats.url }, background: false });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipn-processes-'));
  });
  after(async () => {
    for (const p of processes)
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    for (const r of receivers) await r.close();
    await app?.stop();
    await nats?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const dispatcher = async (env: Record<string, string> = {}) => {
    const p = await startMain({
      DATABASE_URL: app.db.url,
      DATA_DIR: dataDir,
      ROLES: 'relay,ipn',
      HEALTH_PORT: '0',
      SEED_DEMO: 'false',
      NATS_URL: nats.url,
      NATS_STREAM: app.container.config.NATS_STREAM,
      NATS_SUBJECT_PREFIX: app.container.config.NATS_SUBJECT_PREFIX,
      PAYMENTS_SECRETS_KEY: app.secrets.PAYMENTS_SECRETS_KEY,
      PAYMENTS_IPN_TIMEOUT_MS: '1000',
      PAYMENTS_IPN_POLL_MS: '50',
      ...env,
    });
    processes.push(p);
    return p;
  };
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const rows = (where: Record<string, string>) =>
    app.db.knex('payments_ipn_notifications').where(where).select('notification_id', 'status', 'attempts');
  const retried = async (transactionId: string, n: number) =>
    (await app.db.knex('payments_ipn_attempts').where({ transaction_id: transactionId, verdict: 'RETRY' })).length >= n
      ? true
      : undefined;

  it('after kill -9 between retries, the next process sends attempt 3 when its stored backoff says', async () => {
    const r = await receiver((_req, i) => (i <= 2 ? { answer: 500 } : success));
    const merchant = `ipn-kill-${process.pid}`;
    await onboardIpnMerchant(app.container.services.payments, merchant, r.url);
    // Waits of 1.5 s, then 3 s: the kill falls in the second wait.
    const first = await dispatcher({ PAYMENTS_IPN_FIRST_RETRY_MS: '1500' });
    const { transactionId } = await appendTransaction(app.container.store, merchant);
    await until('two failed attempts', () => retried(transactionId, 2), 30_000);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).to.equal('SIGKILL');
    expect(r.received).to.have.length(2);

    await dispatcher({ PAYMENTS_IPN_FIRST_RETRY_MS: '1500' });
    const [row] = await until(
      'delivery by the next process',
      async () => {
        const found = await rows({ transaction_id: transactionId });
        return found[0]?.status === 'DELIVERED' ? found : undefined;
      },
      60_000,
    );
    expect(row!.attempts).to.equal(3);
    expect(r.received.map((x) => x.headers['x-ipn-attempt'])).to.deep.equal(['1', '2', '3']);
    // The backoff was not reset: the third came at least the stored 3 s after the second.
    expect(r.received[2]!.at - r.received[1]!.at).to.be.at.least(3000);
  });

  it('after kill -9 mid-request, the next process takes the lease at once, marks the attempt INTERRUPTED, sends attempt 2', async () => {
    const r = await receiver((_req, i) => (i === 1 ? { hang: true } : success));
    const merchant = `ipn-midreq-${process.pid}`;
    await onboardIpnMerchant(app.container.services.payments, merchant, r.url);
    // A 30 s timeout: the lease would last 40 s; the dead owner's lease is ended long before.
    const env = { PAYMENTS_IPN_TIMEOUT_MS: '30000', PAYMENTS_IPN_FIRST_RETRY_MS: '1000' };
    // The earlier tests' dispatchers (1 s timeouts) stop first: the first POST is this test's first process's, and
    // only the next one may take it over (one left running claimed it, timed out and recorded a RETRY under load).
    for (const p of processes)
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    const first = await dispatcher(env);
    const { transactionId } = await appendTransaction(app.container.store, merchant);
    await until('the first POST hanging', () => (r.received.length === 1 ? true : undefined), 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    await dispatcher(env);
    await until(
      'attempt 2 delivered',
      async () => ((await rows({ transaction_id: transactionId }))[0]?.status === 'DELIVERED' ? true : undefined),
      60_000,
    );
    expect(Date.now() - killedAt).to.be.below(30_000);
    const attempts = (await app.db
      .knex('payments_ipn_attempts')
      .where({ transaction_id: transactionId })
      .orderBy('attempt_no')) as { attempt_no: number; verdict: string }[];
    expect(attempts.map((a) => [a.attempt_no, a.verdict])).to.deep.equal([
      [1, 'INTERRUPTED'],
      [2, 'DELIVERED'],
    ]);
    expect(r.received.map((x) => x.headers['x-ipn-attempt'])).to.deep.equal(['1', '2']);
  });

  it('with two dispatchers, sends no attempt of any notification twice, and delivers every one', async () => {
    const merchants = [0, 1, 2, 3].map((i) => `ipn-two-${process.pid}-${i}`);
    // Every fifth request fails, so retries race too.
    const r = await receiver((_req, i) => (i % 5 === 0 ? { answer: 503 } : { ...success, delayMs: 5 }));
    for (const m of merchants) await onboardIpnMerchant(app.container.services.payments, m, r.url, 8);
    await dispatcher({ PAYMENTS_IPN_FIRST_RETRY_MS: '200' });
    await dispatcher({ PAYMENTS_IPN_FIRST_RETRY_MS: '200' });
    const txs: string[] = [];
    for (let i = 0; i < 120; i++)
      txs.push((await appendTransaction(app.container.store, merchants[i % merchants.length]!)).transactionId);
    await until(
      'every notification delivered',
      async () => {
        const found = await app.db
          .knex('payments_ipn_notifications')
          .whereIn('transaction_id', txs)
          .whereNot('status', 'DELIVERED');
        const all = await app.db.knex('payments_ipn_notifications').whereIn('transaction_id', txs).count({ n: '*' });
        return found.length === 0 && Number(all[0]!.n) === txs.length ? true : undefined;
      },
      90_000,
    );
    const sent = r.received.filter((x) => txs.includes(x.body.transactionId as string));
    const keys = sent.map((x) => `${x.headers['x-ipn-notification-id']}#${x.headers['x-ipn-attempt']}`);
    expect(new Set(keys).size).to.equal(keys.length);
    const attempts = await app.db.knex('payments_ipn_attempts').whereIn('transaction_id', txs);
    expect(attempts.length).to.equal(sent.length);
    // Several processes took part (the two started here, and the one left from the test before).
    expect(new Set(attempts.map((a: { dispatcher: string }) => a.dispatcher)).size).to.be.at.least(2);
  });

  it('loses no notification when NATS is killed and started again mid-run', async () => {
    const r = await receiver();
    const merchant = `ipn-nats-${process.pid}`;
    await onboardIpnMerchant(app.container.services.payments, merchant, r.url);
    const txs: string[] = [];
    for (let i = 0; i < 20; i++) txs.push((await appendTransaction(app.container.store, merchant)).transactionId);
    await nats.kill();
    for (let i = 0; i < 20; i++) txs.push((await appendTransaction(app.container.store, merchant)).transactionId);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await nats.start();
    for (let i = 0; i < 20; i++) txs.push((await appendTransaction(app.container.store, merchant)).transactionId);
    await until(
      'all 60 delivered after the NATS restart',
      async () => {
        const delivered = await app.db
          .knex('payments_ipn_notifications')
          .whereIn('transaction_id', txs)
          .where({ status: 'DELIVERED' });
        return delivered.length === txs.length ? true : undefined;
      },
      120_000,
    );
    const got = new Set(r.received.map((x) => x.body.transactionId as string));
    expect(txs.every((t) => got.has(t))).to.equal(true);
  });
});
