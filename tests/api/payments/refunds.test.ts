import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { useHubScene } from './hub-scene.js';
import { refundBody, refundSnapshotBody, transactionSnapshotBody } from './refund-support.js';
import { expectHubError, expectHubOk, hub, hubHeaders, type Onboarded } from './support.js';

interface Accepted {
  refundId: string;
  remainingRefundableAmount: number;
  status: string;
}

/**
 * POST /transactions/refund and POST /refunds/snapshot over HTTP on PostgreSQL (docs/payments-refunds.md), with the
 * race of parallel refunds on one transaction.
 */
describe('Payment hub refunds (HTTP, PostgreSQL)', function () {
  this.timeout(60_000);
  const s = useHubScene();
  const { key, ts } = s;
  const refundHeaders = (m: Onboarded, t = 'T1', requestId = randomUUID()) => ({
    ...hubHeaders(key(m, t), ts(), requestId),
    'X-User-ID': 'ops-user-1',
  });

  /** A COMPLETED transaction of m (reported by snapshot), its id. */
  async function completed(m: Onboarded, orderId: string, amount = 150000): Promise<string> {
    expectHubOk(
      await hub(
        s.app.baseUrl,
        'POST',
        '/transactions/snapshot',
        hubHeaders(key(m), ts()),
        transactionSnapshotBody(m.secretKey, ts(), orderId, { amount }),
      ),
    );
    const found = expectHubOk(
      await hub(
        s.app.baseUrl,
        'GET',
        `/transactions?orderId=${orderId}&referenceId=REF-${orderId}`,
        hubHeaders(key(m), ts()),
      ),
    ) as { items: { id: string }[] };
    return found.items[0]!.id;
  }

  const refund = (
    m: Onboarded,
    ref: { transactionId: string } | { orderId: string; referenceId: string },
    fields: { amount: number; refundReferenceId: string; refundType?: string; refundVpoint?: number },
    extra: Record<string, unknown> = {},
    headers: Record<string, string | undefined> = refundHeaders(m),
  ) => hub(s.app.baseUrl, 'POST', '/transactions/refund', headers, refundBody(m.secretKey, ts(), ref, fields, extra));

  const refundSnapshot = (
    m: Onboarded,
    transactionId: string,
    fields: { amount: number; refundReferenceId: string; refundType?: string; status?: string },
    extra: Record<string, unknown> = {},
  ) =>
    hub(
      s.app.baseUrl,
      'POST',
      '/refunds/snapshot',
      hubHeaders(key(m), ts()),
      refundSnapshotBody(m.secretKey, ts(), transactionId, fields, extra),
    );

  describe('refund request (POST /transactions/refund)', () => {
    it('accepts a PARTIAL refund PENDING with its id and what remains, then FULL refunds the rest', async () => {
      const id = await completed(s.m1, 'RF-A');
      const first = expectHubOk(await refund(s.m1, { transactionId: id }, { amount: 40000, refundReferenceId: 'R1' }));
      expect(first).to.have.all.keys('refundId', 'remainingRefundableAmount', 'status');
      expect(first).to.deep.include({ remainingRefundableAmount: 110000, status: 'PENDING' });
      // By the pair, refundType in lower case (signed as sent), reason and requestedBy kept.
      const second = expectHubOk(
        await refund(
          s.m1,
          { orderId: 'RF-A', referenceId: 'REF-RF-A' },
          { amount: 10000, refundReferenceId: 'R2', refundType: 'partial' },
          { reason: 'damaged', requestedBy: 'agent-7', currency: 'VND' },
        ),
      ) as Accepted;
      expect(second.remainingRefundableAmount).to.equal(100000);
      // FULL after partials: the whole remaining amount, which `amount` must state.
      expectHubError(
        await refund(s.m1, { transactionId: id }, { amount: 150000, refundReferenceId: 'R3', refundType: 'FULL' }),
        400,
        4012,
      );
      const full = expectHubOk(
        await refund(s.m1, { transactionId: id }, { amount: 100000, refundReferenceId: 'R3', refundType: 'Full' }),
      ) as Accepted;
      expect(full.remainingRefundableAmount).to.equal(0);
      expectHubError(await refund(s.m1, { transactionId: id }, { amount: 1, refundReferenceId: 'R4' }), 400, 4012);

      const ledger = await s.app.container.store.readStream(`paymentRefunds-${id}`);
      expect(ledger.map((e) => e.type)).to.deep.equal(['RefundRequested', 'RefundRequested', 'RefundRequested']);
      expect(ledger[1]!.data).to.deep.include({
        refundReferenceId: 'R2',
        amount: 10000,
        currency: 'VND',
        refundType: 'PARTIAL',
        reason: 'damaged',
        requestedBy: 'agent-7',
        userId: 'ops-user-1',
        refundVpoint: null,
      });
      expect(ledger[2]!.data).to.deep.include({ refundType: 'FULL', amount: 100000, remainingRefundableAmount: 0 });
    });

    it('refunds a payment the provider completed (held, then confirmed)', async () => {
      const id = await s.held('RF-P');
      expectHubError(await refund(s.m1, { transactionId: id }, { amount: 1000, refundReferenceId: 'H1' }), 400, 4012);
      expectHubOk(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(s.m1), ts()), s.signedById(s.m1, id)),
      );
      const accepted = expectHubOk(
        await refund(
          s.m1,
          { transactionId: id.toUpperCase() },
          { amount: 150000, refundReferenceId: 'H1', refundType: 'FULL' },
        ),
      ) as Accepted;
      expect(accepted.remainingRefundableAmount).to.equal(0);
    });

    it('4012 for a transaction that is not COMPLETED and for more than remains', async () => {
      const failed = 'RF-FAILED';
      expectHubOk(
        await hub(
          s.app.baseUrl,
          'POST',
          '/transactions/snapshot',
          hubHeaders(key(s.m1), ts()),
          transactionSnapshotBody(s.m1.secretKey, ts(), failed, {
            status: 'FAILED',
            errorCode: 'E',
            errorMessage: 'declined',
          }),
        ),
      );
      expectHubError(
        await refund(s.m1, { orderId: failed, referenceId: `REF-${failed}` }, { amount: 1, refundReferenceId: 'X' }),
        400,
        4012,
      );
      const pending = (expectHubOk(await s.init(s.m1, 'RF-PENDING')) as { transaction: { id: string } }).transaction.id;
      expectHubError(await refund(s.m1, { transactionId: pending }, { amount: 1, refundReferenceId: 'X' }), 400, 4012);
      const id = await completed(s.m1, 'RF-MORE');
      expectHubError(await refund(s.m1, { transactionId: id }, { amount: 150001, refundReferenceId: 'X' }), 400, 4012);
      expect(await s.app.container.store.readStream(`paymentRefunds-${id}`)).to.have.length(0);
    });

    it('409 4092 for a refundReferenceId the transaction used, under another X-Request-ID', async () => {
      const id = await completed(s.m1, 'RF-DUP');
      expectHubOk(await refund(s.m1, { transactionId: id }, { amount: 1000, refundReferenceId: 'SAME' }));
      expectHubError(await refund(s.m1, { transactionId: id }, { amount: 2000, refundReferenceId: 'SAME' }), 409, 4092);
      // Another transaction may use it.
      const other = await completed(s.m1, 'RF-DUP2');
      expectHubOk(await refund(s.m1, { transactionId: other }, { amount: 1000, refundReferenceId: 'SAME' }));
    });

    it('an identical resend under its X-Request-ID answers the same refund; another body under it is 4093', async () => {
      const id = await completed(s.m1, 'RF-RESEND');
      const headers = refundHeaders(s.m1);
      const body = refundBody(s.m1.secretKey, ts(), { transactionId: id }, { amount: 5000, refundReferenceId: 'RS' });
      const first = expectHubOk(await hub(s.app.baseUrl, 'POST', '/transactions/refund', headers, body));
      const again = expectHubOk(await hub(s.app.baseUrl, 'POST', '/transactions/refund', headers, body));
      expect(again).to.deep.equal(first);
      const other = refundBody(s.m1.secretKey, ts(), { transactionId: id }, { amount: 6000, refundReferenceId: 'RS2' });
      expectHubError(await hub(s.app.baseUrl, 'POST', '/transactions/refund', headers, other), 409, 4093);
      expect(await s.app.container.store.readStream(`paymentRefunds-${id}`)).to.have.length(1);
    });

    it('403 4200 for another terminal or merchant, 404 4301 for an unknown transaction or pair', async () => {
      const id = await completed(s.m1, 'RF-OWN');
      expectHubError(
        await refund(
          s.m1,
          { transactionId: id },
          { amount: 1000, refundReferenceId: 'O' },
          {},
          refundHeaders(s.m1, 'T2'),
        ),
        403,
        4200,
      );
      expectHubError(
        await hub(
          s.app.baseUrl,
          'POST',
          '/transactions/refund',
          refundHeaders(s.m2),
          refundBody(s.m2.secretKey, ts(), { transactionId: id }, { amount: 1000, refundReferenceId: 'O' }),
        ),
        403,
        4200,
      );
      expectHubError(
        await refund(s.m1, { transactionId: randomUUID() }, { amount: 1000, refundReferenceId: 'O' }),
        404,
        4301,
      );
      expectHubError(
        await refund(s.m1, { orderId: 'RF-OWN', referenceId: 'wrong' }, { amount: 1000, refundReferenceId: 'O' }),
        404,
        4301,
      );
    });

    it('refundVpoint enters the string when sent, and is refused 4001 for a transaction with no payment session', async () => {
      const id = await completed(s.m1, 'RF-VP');
      // Signed without refundVpoint but sent with it: the hash is wrong.
      const unsigned = {
        ...refundBody(s.m1.secretKey, ts(), { transactionId: id }, { amount: 1000, refundReferenceId: 'V' }),
        refundVpoint: 50,
      };
      expectHubError(
        await hub(s.app.baseUrl, 'POST', '/transactions/refund', refundHeaders(s.m1), unsigned),
        401,
        4102,
      );
      const message = expectHubError(
        await refund(s.m1, { transactionId: id }, { amount: 1000, refundReferenceId: 'V', refundVpoint: 50 }),
        400,
        4001,
      );
      expect(message).to.include('refundVpoint');
    });

    it('4001 for malformed fields and headers, 4102 for a wrong hash, 4103 for a stale timestamp', async () => {
      const id = await completed(s.m1, 'RF-BAD');
      const ok = { amount: 1000, refundReferenceId: 'B' };
      const cases: [Record<string, unknown>, string][] = [
        [{ amount: 1000.5 }, 'amount'],
        [{ amount: '1000' }, 'amount'],
        [{ refundType: 'HALF' }, 'refundType'],
        [{ refundReferenceId: undefined }, 'refundReferenceId'],
        [{ refundReferenceId: 'a|b' }, 'refundReferenceId'],
        [{ currency: 'USD' }, 'currency'],
        [{ transactionId: undefined }, 'transactionId'],
      ];
      for (const [extra, field] of cases) {
        const message = expectHubError(await refund(s.m1, { transactionId: id }, ok, extra), 400, 4001);
        expect(message, JSON.stringify(extra)).to.include(field);
      }
      // 0 passes the form (a payment-session refund of points only may send it) and is refused by the ledger.
      expect(
        expectHubError(await refund(s.m1, { transactionId: id }, { amount: 0, refundReferenceId: 'B' }), 400, 4001),
      ).to.include('amount');
      const noUser = { ...refundHeaders(s.m1), 'X-User-ID': undefined };
      expect(expectHubError(await refund(s.m1, { transactionId: id }, ok, {}, noUser), 400, 4001)).to.include(
        'X-User-ID',
      );
      expectHubError(await refund(s.m1, { transactionId: id }, ok, { amount: 1001 }), 401, 4102);
      const stale = String(Number(ts()) - 3600);
      expectHubError(
        await hub(
          s.app.baseUrl,
          'POST',
          '/transactions/refund',
          { ...hubHeaders(key(s.m1), stale), 'X-User-ID': 'u' },
          refundBody(s.m1.secretKey, stale, { transactionId: id }, ok),
        ),
        401,
        4103,
      );
      expect(await s.app.container.store.readStream(`paymentRefunds-${id}`)).to.have.length(0);
    });

    it('never over-refunds: 20 parallel partial refunds summing to twice the amount', async () => {
      const id = await completed(s.m1, 'RF-RACE', 100000);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          refund(s.m1, { transactionId: id }, { amount: 10000, refundReferenceId: `RACE-${i}` }),
        ),
      );
      const accepted = results.filter((r) => r.status === 200).map((r) => r.body.data as Accepted);
      const refused = results.filter((r) => r.status !== 200);
      for (const r of refused) expectHubError(r, 400, 4012);
      expect(accepted).to.have.length(10);
      expect(accepted.map((a) => a.remainingRefundableAmount).sort((a, b) => a - b)).to.deep.equal(
        Array.from({ length: 10 }, (_, i) => i * 10000),
      );
      const ledger = await s.app.container.store.readStream(`paymentRefunds-${id}`);
      const sum = ledger.reduce((total, e) => total + (e.data as { amount: number }).amount, 0);
      expect(sum).to.equal(100000);
    });

    it('never over-refunds with uneven parallel refunds and a FULL among them', async () => {
      const id = await completed(s.m1, 'RF-RACE2', 100000);
      const amounts = [30000, 25000, 45000, 20000, 35000, 15000, 40000, 10000];
      const results = await Promise.all([
        ...amounts.map((amount, i) => refund(s.m1, { transactionId: id }, { amount, refundReferenceId: `U-${i}` })),
        refund(s.m1, { transactionId: id }, { amount: 100000, refundReferenceId: 'U-FULL', refundType: 'FULL' }),
      ]);
      for (const r of results.filter((x) => x.status !== 200)) expectHubError(r, 400, 4012);
      const ledger = await s.app.container.store.readStream(`paymentRefunds-${id}`);
      const sum = ledger.reduce((total, e) => total + (e.data as { amount: number }).amount, 0);
      expect(sum).to.be.at.most(100000);
      expect(ledger).to.have.length(results.filter((x) => x.status === 200).length);
    });
  });

  describe('refund snapshot (POST /refunds/snapshot)', () => {
    it('records a COMPLETED refund, which counts; a FAILED one does not', async () => {
      const id = await completed(s.m1, 'RS-A');
      const done = expectHubOk(await refundSnapshot(s.m1, id, { amount: 50000, refundReferenceId: 'S1' })) as Accepted;
      expect(done).to.deep.include({ status: 'COMPLETED', remainingRefundableAmount: 100000 });
      const failed = expectHubOk(
        await refundSnapshot(
          s.m1,
          id,
          { amount: 100000, refundReferenceId: 'S2', status: 'FAILED' },
          { errorCode: 'EXT', errorMessage: 'bank refused' },
        ),
      ) as Accepted;
      expect(failed).to.deep.include({ status: 'FAILED', remainingRefundableAmount: 100000 });
      // What the snapshots left: 100000; more is 4012, exactly that is accepted.
      expectHubError(await refund(s.m1, { transactionId: id }, { amount: 100001, refundReferenceId: 'S3' }), 400, 4012);
      expectHubOk(
        await refund(s.m1, { transactionId: id }, { amount: 100000, refundReferenceId: 'S3', refundType: 'FULL' }),
      );
      const ledger = await s.app.container.store.readStream(`paymentRefunds-${id}`);
      expect(ledger.map((e) => e.type)).to.deep.equal([
        'RefundSnapshotRecorded',
        'RefundSnapshotRecorded',
        'RefundRequested',
      ]);
    });

    it('4012 for a COMPLETED snapshot over what remains, 4092 for a used refundReferenceId', async () => {
      const id = await completed(s.m1, 'RS-B');
      expectHubOk(await refund(s.m1, { transactionId: id }, { amount: 100000, refundReferenceId: 'Q1' }));
      expectHubError(await refundSnapshot(s.m1, id, { amount: 50001, refundReferenceId: 'Q2' }), 400, 4012);
      expectHubError(await refundSnapshot(s.m1, id, { amount: 1000, refundReferenceId: 'Q1' }), 409, 4092);
      expectHubOk(await refundSnapshot(s.m1, id, { amount: 50000, refundReferenceId: 'Q2', refundType: 'FULL' }));
    });

    it('4016 and 4017 for the status and error data, 4301 and 4200 for the transaction, 4102 and 4001', async () => {
      const id = await completed(s.m1, 'RS-C');
      expectHubError(
        await refundSnapshot(s.m1, id, { amount: 1000, refundReferenceId: 'C', status: 'PENDING' }),
        400,
        4016,
      );
      expectHubError(
        await refundSnapshot(s.m1, id, { amount: 1000, refundReferenceId: 'C', status: 'FAILED' }),
        400,
        4017,
      );
      expectHubError(await refundSnapshot(s.m1, randomUUID(), { amount: 1000, refundReferenceId: 'C' }), 404, 4301);
      expectHubError(
        await hub(
          s.app.baseUrl,
          'POST',
          '/refunds/snapshot',
          hubHeaders(key(s.m1, 'T2'), ts()),
          refundSnapshotBody(s.m1.secretKey, ts(), id, { amount: 1000, refundReferenceId: 'C' }),
        ),
        403,
        4200,
      );
      const tampered = {
        ...refundSnapshotBody(s.m1.secretKey, ts(), id, { amount: 1000, refundReferenceId: 'C' }),
        processedAt: 1,
      };
      expectHubError(
        await hub(s.app.baseUrl, 'POST', '/refunds/snapshot', hubHeaders(key(s.m1), ts()), tampered),
        401,
        4102,
      );
      for (const extra of [{ amount: 10.5 }, { currency: undefined }, { refundType: 'some' }, { processedAt: 'x' }])
        expectHubError(await refundSnapshot(s.m1, id, { amount: 1000, refundReferenceId: 'C' }, extra), 400, 4001);
      expect(await s.app.container.store.readStream(`paymentRefunds-${id}`)).to.have.length(0);
    });
  });
});
