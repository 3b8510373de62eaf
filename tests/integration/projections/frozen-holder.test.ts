/**
 * Issue 11, fault 3, with real processes: a projector lease holder frozen (SIGSTOP) past its lease while its pull
 * request is open. Its successor takes over, and an event the frozen holder's pull received is not lost: the
 * successor finds the hole in the stream sequence and applies it from the event store. No process is restarted.
 */
import { expect } from 'chai';
import { promotionMasterBody } from '../../support/checkout-fixtures.js';
import { until, type MainProcess } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';
import { startOwnNatsServer, type OwnNatsServer } from '../../support/own-nats-server.js';

const operatorToken = 'frozen-holder-operator-token-0123456789abcdef';
const projector = 'checkout-promotion-masters';

interface Ready {
  roles: { projectors?: Array<{ projector: string; applying: boolean }> };
}

describe('a projector holder frozen past its lease (SIGSTOP; real processes, own nats-server)', function () {
  this.timeout(180_000);
  // First, so that its processes (a frozen one continued) stop before the nats-server does.
  const suite = mainSuite('frozen-holder');
  let nats: OwnNatsServer;

  before(async function () {
    nats = await startOwnNatsServer(this);
  });
  after(async () => {
    await nats?.stop();
  });

  const start = (roles: string) =>
    suite.start({
      NATS_URL: nats.url,
      NATS_STREAM: 'FROZENHOLDER',
      ROLES: roles,
      PORT: '0',
      SEED_DEMO: 'false',
      OPERATOR_TOKENS: `alice=${operatorToken}`,
    });
  const applying = async (p: MainProcess) => {
    const res = await fetch(`http://127.0.0.1:${p.port}/ready`).catch(() => undefined);
    if (!res) return false;
    const body = (await res.json()) as Ready;
    return body.roles.projectors?.find((s) => s.projector === projector)?.applying ?? false;
  };
  const projectedIds = async (): Promise<number[]> =>
    (await suite.db.knex('checkout_promotion_masters').orderBy('promotion_master_id').pluck('promotion_master_id')).map(
      Number,
    );

  it('loses no event: the successor applies what the frozen holder’s pull received, from the event store', async () => {
    const api = await start('api,relay');
    const create = async (title: string): Promise<number> => {
      const res = await fetch(`http://127.0.0.1:${api.port}/operator/v1/promotion-masters`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${operatorToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(promotionMasterBody({ title, valid_until: '2027-04-01T00:00:00Z' })),
      });
      expect(res.status).to.equal(201);
      return ((await res.json()) as { data: { promotion_master_id: number } }).data.promotion_master_id;
    };

    const first = await start('projector');
    await until('the first projector process to hold the lease', async () =>
      (await applying(first)) ? true : undefined,
    );
    const second = await start('projector');
    expect(await applying(second)).to.equal(false);
    const before = await create('before the freeze');
    await until('the first to be projected', async () => ((await projectedIds()).includes(before) ? true : undefined));

    // Frozen right after it applied an event, so its next pull request (open 30 s) was just sent.
    first.child.kill('SIGSTOP');
    // Nothing is published until the takeover: the successor finds no unacked message, so it keeps the consumer (and
    // with it the frozen holder's open pull request) as it is.
    await until('the second process to take over', async () => ((await applying(second)) ? true : undefined), 60_000);
    // The frozen holder's pull is still open on the server (older than the successor's): the first of these goes to
    // it, after the takeover, so the successor's checkpoint passes it. The hole in the sequence brings it back.
    const afterTakeover = [await create('after the takeover 1'), await create('after the takeover 2')];
    await until(
      'the events after the takeover to be projected',
      async () => {
        const ids = await projectedIds();
        return afterTakeover.every((id) => ids.includes(id)) ? true : undefined;
      },
      30_000,
    );

    first.child.kill('SIGCONT'); // it wakes, finds its lease gone, commits nothing
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await projectedIds()).to.deep.equal([before, ...afterTakeover].sort((a, b) => a - b));
    expect(await applying(second)).to.equal(true);
  });
});
