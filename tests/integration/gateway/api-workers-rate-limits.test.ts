import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { call, expectOk, expectRefusal, type HttpResult } from '../../api/support.js';
import { startMain, type MainProcess } from '../../support/main-process.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

const operatorToken = 'alice-operator-token-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** main.ts serving the api from two node:cluster workers, on `db`, with `env` added. */
async function twoWorkers(
  db: TestDatabase,
  env: Record<string, string>,
): Promise<{ service: MainProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-workers-'));
  const service = await startMain(
    {
      DATABASE_URL: db.url,
      DATA_DIR: dir,
      API_WORKERS: '2',
      PORT: '0',
      SEED_DEMO: 'false',
      OPERATOR_TOKENS: `alice=${operatorToken}`,
      ...env,
    },
    { started: (line) => line.apiWorkers === 2 },
  );
  return { service, dir };
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
  let db: TestDatabase;
  const started: { service: MainProcess; dir: string }[] = [];

  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    for (const { service, dir } of started) {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await db.drop();
  });

  it('counts requests spread over both workers in one window (the primary’s): 429 together, then recovery', async () => {
    const running = await twoWorkers(db, {});
    started.push(running);
    const baseUrl = `http://127.0.0.1:${running.service.port}`;
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

    running.service.child.kill('SIGTERM');
    expect(await running.service.exited).to.deep.equal({ code: 0, signal: null });
  });

  it('while each worker counting alone (GATEWAY_RATE_LIMIT_STORE=memory) lets more through: the burst reached both', async () => {
    const running = await twoWorkers(db, { GATEWAY_RATE_LIMIT_STORE: 'memory' });
    started.push(running);
    const baseUrl = `http://127.0.0.1:${running.service.port}`;
    const headers = await limitedParty(baseUrl, 'own-windows', 10, 6);
    const answers = await burst(baseUrl, headers, 30);
    expect(passed(answers)).to.be.above(10);
    running.service.child.kill('SIGTERM');
    await running.service.exited;
  });
});
