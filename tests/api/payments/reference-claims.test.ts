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
  const transactionsOf = async (referenceId: string) =>
    (await s.app.container.store.readAll(null, 100_000))
      .filter((e) => e.type === 'TransactionInitiated')
      .filter((e) => (e.data as { referenceId: string }).referenceId === referenceId);

  it('eight inits at once with one referenceId and eight orderIds: exactly one wins, the others 409 4091', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => initWith(s.m1, `ORD-RACE-${i}`, 'REF-RACE')));
    const won = results.filter((r) => r.status === 200);
    expect(won, JSON.stringify(results.map((r) => r.body))).to.have.length(1);
    for (const r of results) if (r.status !== 200) expectHubError(r, 409, 4091);
    expect(await transactionsOf('REF-RACE')).to.have.length(1);
  });

  it('sequentially too; another merchant may use the same referenceId', async () => {
    expectHubOk(await initWith(s.m1, 'ORD-SEQ-1', 'REF-SEQ'));
    expectHubError(await initWith(s.m1, 'ORD-SEQ-2', 'REF-SEQ'), 409, 4091);
    expectHubOk(await initWith(s.m2, 'ORD-SEQ-3', 'REF-SEQ'));
    expect(await transactionsOf('REF-SEQ')).to.have.length(2);
  });
});
