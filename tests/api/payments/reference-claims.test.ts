import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { useHubScene } from './hub-scene.js';
import { expectHubError, expectHubOk, hub, hubHeaders, initBody, sign } from './support.js';

/**
 * The seed's init errors: 409 4091 "reference id already used"; its error table: "pair or reference already used".
 * A referenceId is usable once per merchant, claimed in the same append as the orderId (docs/payments.md, "Init
 * payment"), so racing inits on PostgreSQL cannot both be written.
 */
describe('Payment hub: a referenceId is usable once per merchant (HTTP, PostgreSQL)', () => {
  const s = useHubScene();
  const { key, ts } = s;
  const initWith = (m: typeof s.m1, orderId: string, referenceId: string) =>
    hub(s.app.baseUrl, 'POST', '/transactions', hubHeaders(key(m), ts()), {
      ...initBody(m.secretKey, orderId, { referenceId }),
      secureHash: sign(m.secretKey, `${orderId}|${referenceId}|150000|VND|1772359200000`),
    });
  /** The orderIds (of `orderIds`) whose transaction was written: their guard streams in the store. */
  const written = async (merchantCode: string, orderIds: string[]) => {
    const found: string[] = [];
    for (const orderId of orderIds) {
      const digest = createHash('sha256').update(`${merchantCode}\n${orderId}`, 'utf8').digest('hex');
      if ((await s.app.container.store.readStream(`paymentOrder-${digest}`)).length > 0) found.push(orderId);
    }
    return found;
  };

  it('eight inits at once with one referenceId and eight orderIds: exactly one wins, the others 409 4091', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => initWith(s.m1, `ORD-RACE-${i}`, 'REF-RACE')));
    const won = results.filter((r) => r.status === 200);
    expect(won, JSON.stringify(results.map((r) => r.body))).to.have.length(1);
    for (const r of results) if (r.status !== 200) expectHubError(r, 409, 4091);
    const orderIds = Array.from({ length: 8 }, (_, i) => `ORD-RACE-${i}`);
    const winner = (won[0]!.body.data as { transaction: { orderId: string } }).transaction.orderId;
    expect(await written('shop-one', orderIds)).to.deep.equal([winner]);
  });

  it('sequentially too; another merchant may use the same referenceId', async () => {
    expectHubOk(await initWith(s.m1, 'ORD-SEQ-1', 'REF-SEQ'));
    expectHubError(await initWith(s.m1, 'ORD-SEQ-2', 'REF-SEQ'), 409, 4091);
    expectHubOk(await initWith(s.m2, 'ORD-SEQ-3', 'REF-SEQ'));
    expect(await written('shop-one', ['ORD-SEQ-1', 'ORD-SEQ-2'])).to.deep.equal(['ORD-SEQ-1']);
    expect(await written('shop-two', ['ORD-SEQ-3'])).to.deep.equal(['ORD-SEQ-3']);
  });
});
