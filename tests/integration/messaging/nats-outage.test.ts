import { expect } from 'chai';
import { promotionMasterBody } from '../../support/checkout-fixtures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { startOwnNatsServer, type OwnNatsServer } from '../../support/own-nats-server.js';
import { call, expectOk, operatorHeaders } from '../../api/support.js';

const master = (title: string) => promotionMasterBody({ title, valid_until: '2027-04-01T00:00:00Z' });

/** Issue 11, fault 1: the NATS client used to give up after 10 reconnects 2 s apart and never come back. */
describe('a NATS outage longer than the client’s default reconnect policy (own nats-server, kill -9)', function () {
  this.timeout(180_000);
  let nats: OwnNatsServer;
  let app: TestApp;

  before(async function () {
    nats = await startOwnNatsServer(this);
    app = await startTestApp({ env: { NATS_URL: nats.url } });
  });
  after(async () => {
    await app?.stop();
    await nats?.stop();
  });

  const create = async (title: string): Promise<number> =>
    expectOk(
      await call<{ promotion_master_id: number }>(app.baseUrl, 'POST', '/operator/v1/promotion-masters', {
        headers: operatorHeaders(),
        json: master(title),
      }),
      201,
    ).promotion_master_id;
  const projected = (id: number) =>
    app.container.knex('checkout_promotion_masters').where({ promotion_master_id: id }).first();

  /** Every projected promotion master, in id order: what a rebuild must reproduce. */
  const masterRows = () => app.container.knex('checkout_promotion_masters').orderBy('promotion_master_id');

  it('given 40 s without NATS under load, the read models keep up from the store; when it comes back, the relay and projectors go on by themselves', async () => {
    const before = await create('before the outage');
    await eventually(async () => expect(await projected(before)).to.not.equal(undefined), 15_000);

    expect((await call(app.baseUrl, 'GET', '/ready')).body).to.deep.include({
      status: 'READY',
      checks: { database: true, nats: true },
    });

    await nats.kill();
    // Load through the outage: the API keeps accepting (the store is PostgreSQL), five writes a second.
    const created: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        created.push(await create(`during the outage ${i}`));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    // Readiness says so, where a supervisor looks.
    await eventually(async () => {
      const ready = await call(app.baseUrl, 'GET', '/ready');
      expect(ready.status).to.equal(503);
      expect(ready.body).to.deep.include({ status: 'NOT_READY', checks: { database: true, nats: false } });
    });
    await new Promise((resolve) => setTimeout(resolve, 40_000));
    writing = false;
    await writer;
    expect(created.length).to.be.greaterThan(100);
    // The read models kept up meanwhile: each projector read the event store while the bus did not answer (issue 31).
    const last = created.at(-1)!;
    await eventually(
      async () => expect(await projected(last), 'projected during the outage').to.not.equal(undefined),
      10_000,
    );
    const duringOutage = await masterRows();

    await nats.start();
    const back = Date.now();
    await eventually(
      async () => expect(await projected(last), 'projected after the outage').to.not.equal(undefined),
      60_000,
    );
    const recoveredMs = Date.now() - back;
    console.log(`      NATS back → ${created.length} writes of the outage projected in ${recoveredMs} ms`);
    await eventually(async () => expect((await call(app.baseUrl, 'GET', '/ready')).status).to.equal(200));
    // The lag, where an operator reads it, is back to zero for every projector.
    await eventually(async () => {
      const { body } = await call<never>(app.baseUrl, 'GET', '/ready');
      const projectors = (body as unknown as { roles: { projectors: Array<{ applying: boolean; lagEvents: number }> } })
        .roles.projectors;
      expect(projectors.filter((p) => p.applying && p.lagEvents !== 0)).to.deep.equal([]);
      expect(projectors.length).to.be.greaterThan(3);
    }, 30_000);
    const after = await create('after the outage');
    await eventually(async () => expect(await projected(after)).to.not.equal(undefined), 15_000);

    const live = await masterRows();
    // What the bus gave again once back (the relay republishes the outage's events) changed nothing.
    expect(live.slice(0, duringOutage.length)).to.deep.equal(duringOutage);
    expect(live.map((r: { promotion_master_id: number }) => r.promotion_master_id)).to.include.members([
      before,
      ...created,
      after,
    ]);
    await app.container.projections.rebuild('checkout-promotion-masters');
    expect(await masterRows()).to.deep.equal(live);
  });

  it('given NATS back with an empty store (the stream lost), then the stream and consumers are made again and nothing is missed', async () => {
    const before = await create('before the store was lost');
    await eventually(async () => expect(await projected(before)).to.not.equal(undefined), 15_000);

    await nats.kill();
    nats.wipe();
    await nats.start();
    const after = await create('after the store was lost');

    // No restart: the relay recreates the stream and republishes the log, the consumers are recreated on it.
    await eventually(
      async () => expect(await projected(after), 'projected after the loss').to.not.equal(undefined),
      30_000,
    );
    const rows = await app.container.knex('checkout_promotion_masters').count<{ n: string }[]>('* as n');
    const masters = await app.container.store.readAll(null, 10_000);
    expect(Number(rows[0]!.n)).to.equal(masters.filter((e) => e.type === 'PromotionMasterCreated').length);
    const live = await masterRows();
    await app.container.projections.rebuild('checkout-promotion-masters');
    expect(await masterRows()).to.deep.equal(live);
  });
});
