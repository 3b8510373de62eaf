/**
 * A process without the api role reports its health, readiness and lag on a port of its own (docs/operations.md,
 * "Health"): NATS lost makes it not ready, NATS back makes it ready again, and the projectors' lag is there to read.
 */
import { expect } from 'chai';
import { until, type MainProcess } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';
import { startOwnNatsServer, type OwnNatsServer } from '../../support/own-nats-server.js';

interface ReadyBody {
  status: string;
  checks: Record<string, boolean>;
  roles: {
    relay?: { active: boolean };
    projectors?: Array<{ projector: string; applying: boolean; lagEvents?: number | null }>;
  };
}

describe('health port of a process without the api role (relay and projector roles, own nats-server)', function () {
  this.timeout(120_000);
  // First, so that its processes stop before the nats-server does (mocha runs after hooks in order).
  const suite = mainSuite('health-port');
  let nats: OwnNatsServer;
  let service: MainProcess | undefined;

  before(async function () {
    nats = await startOwnNatsServer(this);
  });
  after(async () => {
    await nats?.stop();
  });

  const get = async (pathname: string) => {
    const res = await fetch(`http://127.0.0.1:${service!.port}${pathname}`);
    return { status: res.status, body: (await res.text()) as string };
  };
  const ready = async () => {
    const { status, body } = await get('/ready');
    return { status, body: JSON.parse(body) as ReadyBody };
  };

  it('answers /health, /ready with NATS, the relay and each projector, and /metrics; no interface', async () => {
    service = await suite.start({
      NATS_URL: nats.url,
      NATS_STREAM: 'HEALTHPORT',
      ROLES: 'relay,projector',
      PORT: '0',
      SEED_DEMO: 'false',
    });
    expect(await get('/health')).to.deep.equal({ status: 200, body: '{"status":"UP"}' });
    const first = await until('the relay and every projector to be active', async () => {
      const r = await ready();
      const projectors = r.body.roles.projectors ?? [];
      return r.status === 200 && r.body.roles.relay?.active && projectors.every((p) => p.applying) ? r : undefined;
    });
    expect(first.body.status).to.equal('READY');
    expect(first.body.checks).to.deep.equal({ database: true, nats: true });
    const reservations = first.body.roles.projectors!.find((p) => p.projector === 'shop-reservations');
    expect(reservations).to.include({ applying: true });
    expect(reservations!.lagEvents).to.be.a('number');
    expect((await get('/metrics')).body).to.include('projection_lag_events');
    expect((await get('/api/v1/vouchers')).status).to.equal(404);
  });

  it('is not ready while NATS is down, and ready again once it is back, without a restart', async () => {
    await nats.kill();
    const down = await until('readiness to notice NATS is gone', async () => {
      const r = await ready();
      return r.status === 503 ? r : undefined;
    });
    expect(down.body).to.deep.include({ status: 'NOT_READY', checks: { database: true, nats: false } });
    await nats.start();
    const back = await until(
      'readiness to see NATS again',
      async () => {
        const r = await ready();
        return r.status === 200 ? r : undefined;
      },
      60_000,
    );
    expect(back.body.checks).to.deep.equal({ database: true, nats: true });
  });
});
