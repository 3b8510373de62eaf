import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { orderStream } from '../../../application/payments/index.js';
import { useHubScene } from './hub-scene.js';
import { processedAt, transactionSnapshotBody } from './refund-support.js';
import { expectHubError, expectHubOk, hub, hubHeaders, sign, type Onboarded } from './support.js';

/** POST /transactions/snapshot over HTTP on PostgreSQL (docs/payments-refunds.md, "Transaction snapshot"). */
describe('Payment hub transaction snapshot (HTTP, PostgreSQL)', () => {
  const s = useHubScene();
  const { key, ts } = s;

  const snapshot = (m: Onboarded, orderId: string, extra: Record<string, unknown> = {}, headers = {}) =>
    hub(
      s.app.baseUrl,
      'POST',
      '/transactions/snapshot',
      { ...hubHeaders(key(m), ts()), ...headers },
      transactionSnapshotBody(m.secretKey, ts(), orderId, extra),
    );
  const lookup = (m: Onboarded, orderId: string) =>
    hub(s.app.baseUrl, 'GET', `/transactions?orderId=${orderId}&referenceId=REF-${orderId}`, hubHeaders(key(m), ts()));
  const found = async (m: Onboarded, orderId: string) =>
    (expectHubOk(await lookup(m, orderId)) as { items: Record<string, unknown>[] }).items[0]!;

  it('records a COMPLETED transaction as given, without a provider; GET lists it', async () => {
    const res = await snapshot(s.m1, 'SNAP-C');
    expect(res.body).to.deep.equal({ code: 0, message: 'Success' });
    const t = await found(s.m1, 'SNAP-C');
    expect(t).to.deep.include({
      orderId: 'SNAP-C',
      referenceId: 'REF-SNAP-C',
      amount: 150000,
      currency: 'VND',
      status: 'COMPLETED',
      providerTransactionId: 'EXT-SNAP-C',
      merchant: { code: 'shop-one', name: 'Merchant shop-one' },
    });
    expect((t.paymentMethod as { code: string }).code).to.equal('WALLET');
    const store = s.app.container.store;
    const events = await store.readStream(`transaction-${t.id as string}`);
    expect(events.map((e) => e.type)).to.deep.equal(['TransactionSnapshotRecorded']);
    expect((events[0]!.data as { processedAt: string }).processedAt).to.equal(new Date(processedAt).toISOString());
  });

  it('records a FAILED transaction with its error data; branchId and businessUnitId enter the string', async () => {
    expectHubOk(
      await snapshot(s.m1, 'SNAP-F', {
        status: 'FAILED',
        errorCode: 'EXT_DECLINED',
        errorMessage: 'declined elsewhere',
        branchId: 'B1',
        businessUnitId: 'BU1',
      }),
    );
    expect(await found(s.m1, 'SNAP-F')).to.include({ status: 'FAILED' });
  });

  it('claims the orderId like init: a used pair or orderId is 409 4091 and records nothing', async () => {
    expectHubOk(await snapshot(s.m1, 'SNAP-D'));
    expectHubError(await snapshot(s.m1, 'SNAP-D'), 409, 4091);
    // ... even with another status or referenceId; and init cannot take a snapshot's orderId.
    expectHubError(await snapshot(s.m1, 'SNAP-D', { status: 'FAILED', errorCode: 'X', errorMessage: 'x' }), 409, 4091);
    expectHubError(await s.init(s.m1, 'SNAP-D'), 409, 4091);
    // An init's orderId cannot be snapshotted either (nothing recorded: the order stream holds one claim).
    expectHubOk(await s.init(s.m1, 'SNAP-I'));
    expectHubError(await snapshot(s.m1, 'SNAP-I'), 409, 4091);
    const claims = await s.app.container.store.readStream(orderStream('shop-one', 'SNAP-D'));
    expect(claims).to.have.length(1);
  });

  it('parallel snapshots (and an init) of one orderId: exactly one is recorded, the others 409 4091', async () => {
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => snapshot(s.m1, 'SNAP-RACE')),
      s.init(s.m1, 'SNAP-RACE'),
    ]);
    expect(results.filter((r) => r.status === 200)).to.have.length(1);
    for (const r of results.filter((x) => x.status !== 200)) expectHubError(r, 409, 4091);
    expect(await s.app.container.store.readStream(orderStream('shop-one', 'SNAP-RACE'))).to.have.length(1);
  });

  it('an identical resend under its X-Request-ID replays 200; another body under it is 4093', async () => {
    const requestId = randomUUID();
    const headers = hubHeaders(key(s.m1), ts(), requestId);
    const body = transactionSnapshotBody(s.m1.secretKey, ts(), 'SNAP-R');
    expectHubOk(await hub(s.app.baseUrl, 'POST', '/transactions/snapshot', headers, body));
    expectHubOk(await hub(s.app.baseUrl, 'POST', '/transactions/snapshot', headers, body));
    const other = transactionSnapshotBody(s.m1.secretKey, ts(), 'SNAP-R2');
    expectHubError(await hub(s.app.baseUrl, 'POST', '/transactions/snapshot', headers, other), 409, 4093);
  });

  it('4016 for a status other than COMPLETED or FAILED, 4017 for FAILED without error data; nothing recorded', async () => {
    for (const status of ['PENDING', 'HOLDING', 'completed'])
      expectHubError(await snapshot(s.m1, 'SNAP-S', { status }), 400, 4016);
    expectHubError(await snapshot(s.m1, 'SNAP-S', { status: 'FAILED' }), 400, 4017);
    expectHubError(await snapshot(s.m1, 'SNAP-S', { status: 'FAILED', errorCode: 'X' }), 400, 4017);
    expectHubError(await snapshot(s.m1, 'SNAP-S', { status: 'FAILED', errorCode: 'X', errorMessage: '  ' }), 400, 4017);
    expectHubError(await lookup(s.m1, 'SNAP-S'), 404, 4301);
  });

  it('4302 for an X-MiniApp-User-ID the identity directory does not know (a bad hash is 4102 first)', async () => {
    expectHubError(await snapshot(s.m1, 'SNAP-U', {}, { 'X-MiniApp-User-ID': 'nobody-here' }), 404, 4302);
    const badHash = { ...transactionSnapshotBody(s.m1.secretKey, ts(), 'SNAP-U'), amount: 150001 };
    const headers = { ...hubHeaders(key(s.m1), ts()), 'X-MiniApp-User-ID': 'nobody-here' };
    expectHubError(await hub(s.app.baseUrl, 'POST', '/transactions/snapshot', headers, badHash), 401, 4102);
    expectHubError(await lookup(s.m1, 'SNAP-U'), 404, 4301);
  });

  it('4102 when the hash covers paymentType or skipHolding (never in the string), or is wrong', async () => {
    const body = transactionSnapshotBody(s.m1.secretKey, ts(), 'SNAP-H');
    const withPaymentType = {
      ...body,
      paymentType: '3D',
      secureHash: sign(
        s.m1.secretKey,
        `SNAP-H|REF-SNAP-H|150000|VND|1772359200000|3D|COMPLETED|${processedAt}|${ts()}`,
      ),
    };
    expectHubError(
      await hub(s.app.baseUrl, 'POST', '/transactions/snapshot', hubHeaders(key(s.m1), ts()), withPaymentType),
      401,
      4102,
    );
    // paymentType and skipHolding sent but not signed: ignored, the snapshot is recorded.
    expectHubOk(
      await hub(s.app.baseUrl, 'POST', '/transactions/snapshot', hubHeaders(key(s.m1), ts()), {
        ...body,
        paymentType: '2D',
        skipHolding: false,
      }),
    );
    expectHubError(await snapshot(s.m2, 'SNAP-H2', {}, { 'X-Payment-API-Key': key(s.m1) }), 401, 4102);
  });

  it('4001 for missing or malformed fields and headers', async () => {
    const cases: Record<string, unknown>[] = [
      { status: undefined },
      { processedAt: '1772359500000' },
      { processedAt: 1.5 },
      { paymentMethodCode: undefined },
      { providerId: undefined },
      { paymentMethodCode: 'CASH' },
      { userPaymentMethodId: randomUUID() },
      { orderId: 'has|pipe' },
      { currency: 'vnd' },
    ];
    for (const extra of cases) {
      const res = await snapshot(s.m1, 'SNAP-V', extra);
      expectHubError(res, 400, 4001);
    }
    const noRequestId = { ...hubHeaders(key(s.m1), ts()), 'X-Request-ID': undefined };
    expectHubError(
      await hub(
        s.app.baseUrl,
        'POST',
        '/transactions/snapshot',
        noRequestId,
        transactionSnapshotBody(s.m1.secretKey, ts(), 'SNAP-V'),
      ),
      400,
      4001,
    );
    expectHubError(await snapshot(s.m1, 'SNAP-V', {}, { 'X-Payment-API-Key': undefined }), 401, 4101);
  });
});
