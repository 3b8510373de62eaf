import { expect } from 'chai';
import { call, expectOk, expectRefusal, type HttpResult } from '../../api/support.js';
import type { MainProcess } from '../../support/main-process.js';
import { mainSuite, type MainSuite } from '../../support/main-suite.js';

const operatorToken = 'alice-operator-token-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** main.ts serving the api from two node:cluster workers, on the suite's database, with `env` added. */
function twoWorkers(suite: MainSuite, env: Record<string, string>): Promise<MainProcess> {
  return suite.start(
    {
      API_WORKERS: '2',
      PORT: '0',
      SEED_DEMO: 'false',
      OPERATOR_TOKENS: `alice=${operatorToken}`,
      ...env,
    },
    { started: (line) => line.apiWorkers === 2 },
  );
}

/** A party limited to `points` requests per `windowSeconds` on every shop endpoint, and its pair. */
async function limitedParty(baseUrl: string, partyId: string, points: number, windowSeconds: number) {
  const operator = { Authorization: `Bearer ${operatorToken}` };
  expectOk(
    await call(baseUrl, 'POST', '/operator/v1/gateway/parties', {
      headers: operator,
      json: {
        partyId,
        name: 'Limited',
        kind: 'INTERNAL',
        interfaces: ['shop'],
        rateLimits: [{ interface: 'shop', endpoint: '*', points, windowSeconds }],
      },
    }),
    201,
  );
  const issued = expectOk(
    await call<{ clientId: string; clientSecret: string }>(
      baseUrl,
      'POST',
      `/operator/v1/gateway/parties/${partyId}/credentials`,
      {
        headers: operator,
        json: { environments: ['dev'] },
      },
    ),
    201,
  );
  return { client_id: issued.clientId, client_secret: issued.clientSecret };
}

/** `n` shop calls at once, each on a connection of its own, so that the primary spreads them over both workers. */
const burst = (baseUrl: string, headers: Record<string, string>, n: number) =>
  Promise.all(
    Array.from({ length: n }, () =>
      call(baseUrl, 'GET', '/api/v1/gateway-probe', { headers: { ...headers, connection: 'close' } }),
    ),
  );

const passed = (responses: HttpResult[]) => responses.filter((r) => r.status === 404).length;

describe('Gateway rate limits across two API workers (main.ts, API_WORKERS=2)', function () {
  this.timeout(120_000);
  const suite = mainSuite('gateway-workers');

  it('counts requests spread over both workers in one window (the primary’s): 429 together, then recovery', async () => {
    const service = await twoWorkers(suite, {});
    const baseUrl = `http://127.0.0.1:${service.port}`;
    const headers = await limitedParty(baseUrl, 'shared-window', 10, 6);

    const answers = await burst(baseUrl, headers, 30);
    expect(passed(answers)).to.equal(10);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).to.have.length(20);
    for (const r of refused) expectRefusal(r, 429, 'SHOP-REQ-429');
    const retryAfter = Math.max(...refused.map((r) => Number(r.headers.get('retry-after'))));
    expect(retryAfter).to.be.within(1, 6);

    await sleep(retryAfter * 1000 + 300);
    const again = await burst(baseUrl, headers, 4);
    expect(passed(again)).to.equal(4);

    service.child.kill('SIGTERM');
    expect(await service.exited).to.deep.equal({ code: 0, signal: null });
  });

  it('while each worker counting alone (GATEWAY_RATE_LIMIT_STORE=memory) lets more through: the burst reached both', async () => {
    const service = await twoWorkers(suite, { GATEWAY_RATE_LIMIT_STORE: 'memory' });
    const baseUrl = `http://127.0.0.1:${service.port}`;
    const headers = await limitedParty(baseUrl, 'own-windows', 10, 6);
    const answers = await burst(baseUrl, headers, 30);
    expect(passed(answers)).to.be.above(10);
    service.child.kill('SIGTERM');
    await service.exited;
  });
});
