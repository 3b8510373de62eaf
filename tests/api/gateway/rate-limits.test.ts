import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from '../../support/app.js';
import { gatewayHeaders, requireRedis, testRedisUrl } from '../../support/gateway.js';
import {
  expectEnvelope,
  expectRefusal,
  shopHeaders,
  shopScene,
  type HttpResult,
  type ShopMerchant,
} from '../support.js';
import { call } from '../support.js';
import { GatewayOperator, shopProbe } from './support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The statuses of `responses`, counted. */
const tally = (responses: HttpResult[]) =>
  responses.reduce<Record<number, number>>((t, r) => ({ ...t, [r.status]: (t[r.status] ?? 0) + 1 }), {});

/** Each 429 is the shop's, with a Retry-After of 1 to `windowSeconds` seconds. */
function expectShop429s(responses: HttpResult[], windowSeconds: number): void {
  for (const r of responses.filter((r) => r.status === 429)) {
    expectRefusal(r, 429, 'SHOP-REQ-429', /rate limit of \d+ requests per \d+ s reached/);
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, windowSeconds);
  }
}

/** The counts the store holds for `partyId` (memory: none to look at). */
async function storedCounts(store: 'memory' | 'postgres' | 'redis', app: TestApp, partyId: string): Promise<number> {
  if (store === 'postgres')
    return (await app.db.knex('gateway_rate_limits').where('key', 'like', `%${partyId}|%`)).length;
  if (store === 'redis') {
    const redis = new Redis(testRedisUrl);
    try {
      return (await redis.keys(`gw_*${partyId}|*`)).length;
    } finally {
      redis.disconnect();
    }
  }
  return 0;
}

for (const store of ['memory', 'postgres', 'redis'] as const) {
  describe(`Gateway rate limits over HTTP (store: ${store})`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let gateway: GatewayOperator;
    let merchant: ShopMerchant;

    before(async function () {
      if (store === 'redis') await requireRedis(this);
      app = await startTestApp({
        background: false,
        env: {
          REDIS_URL: testRedisUrl,
          GATEWAY_RATE_LIMIT_STORE: store,
          GATEWAY_RATE_LIMIT_POINTS: '8',
          GATEWAY_RATE_LIMIT_WINDOW_SECONDS: '4',
        },
      });
      gateway = new GatewayOperator(app.baseUrl);
      ({ merchant } = await shopScene(app.baseUrl));
    });
    after(() => app?.stop());

    it('answers parallel requests past the party’s limit for an endpoint with 429 and Retry-After, then recovers', async () => {
      const endpoint = 'GET /vouchers/reservation/{key}';
      const { party, headers } = await gateway.partyWithClient({
        rateLimits: [{ interface: 'shop', endpoint, points: 5, windowSeconds: 3 }],
      });
      const lookup = () =>
        call(app.baseUrl, 'GET', '/api/v1/vouchers/reservation/00000000-0000-4000-8000-000000000000', {
          headers: shopHeaders(merchant, 'u1', headers),
        });
      const burst = await Promise.all(Array.from({ length: 15 }, lookup));
      // Through the gateway, the reservation is unknown: 404 SHOP-PUR-003.
      expect(tally(burst)).to.deep.equal({ 404: 5, 429: 10 });
      expectShop429s(burst, 3);
      // Counted in the store itself, not in the fallback of this process's memory.
      if (store !== 'memory') expect(await storedCounts(store, app, party.partyId)).to.be.above(0);
      // Another endpoint of the same party is counted apart (under the default: 8 per 4 s).
      expectRefusal(await shopProbe(app.baseUrl, headers), 404, 'SHOP-REQ-404');

      const retryAfter = Number(burst.find((r) => r.status === 429)!.headers.get('retry-after'));
      await sleep(retryAfter * 1000 + 200);
      expectRefusal(await lookup(), 404, 'SHOP-PUR-003');
    });

    it('counts each party apart, and paths of no endpoint together under the default limit', async () => {
      const one = await gateway.partyWithClient();
      const burst = await Promise.all(Array.from({ length: 12 }, () => shopProbe(app.baseUrl, one.headers)));
      expect(tally(burst)).to.deep.equal({ 404: 8, 429: 4 });
      expectShop429s(burst, 4);
      expectEnvelope(await shopProbe(app.baseUrl, gatewayHeaders()), 404, 'SHOP-REQ-404');
      const elsewhere = await call(app.baseUrl, 'GET', '/api/v1/another-unknown-path', { headers: one.headers });
      expectRefusal(elsewhere, 429, 'SHOP-REQ-429');
    });

    it('applies an override for every endpoint of an interface (`*`), and a change of it at once', async () => {
      const { party, headers } = await gateway.partyWithClient({
        rateLimits: [{ interface: 'shop', endpoint: '*', points: 2, windowSeconds: 5 }],
      });
      const burst = await Promise.all(Array.from({ length: 4 }, () => shopProbe(app.baseUrl, headers)));
      expect(tally(burst)).to.deep.equal({ 404: 2, 429: 2 });
      await gateway.update(party.partyId, {
        rateLimits: [{ interface: 'shop', endpoint: '*', points: 100, windowSeconds: 5 }],
      });
      expectRefusal(await shopProbe(app.baseUrl, headers), 404, 'SHOP-REQ-404');
    });
  });
}

for (const store of ['memory', 'postgres', 'redis'] as const) {
  describe(`Gateway rate limits per user within a party (store: ${store})`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let gateway: GatewayOperator;
    let merchant: ShopMerchant;

    before(async function () {
      if (store === 'redis') await requireRedis(this);
      app = await startTestApp({
        background: false,
        env: {
          REDIS_URL: testRedisUrl,
          GATEWAY_RATE_LIMIT_STORE: store,
          GATEWAY_RATE_LIMIT_POINTS: '100',
          GATEWAY_RATE_LIMIT_WINDOW_SECONDS: '10',
          GATEWAY_USER_RATE_LIMIT_POINTS: '3',
          GATEWAY_USER_RATE_LIMIT_WINDOW_SECONDS: '5',
        },
      });
      gateway = new GatewayOperator(app.baseUrl);
      ({ merchant } = await shopScene(app.baseUrl));
    });
    after(() => app?.stop());

    const lookup = (user: string, headers: Record<string, string | undefined>) =>
      call(app.baseUrl, 'GET', '/api/v1/vouchers/reservation/00000000-0000-4000-8000-000000000000', {
        headers: shopHeaders(merchant, user, headers),
      });

    it("answers one user's requests past their limit with 429; another user, and the same user through another party, still pass", async () => {
      const one = await gateway.partyWithClient();
      const burst = await Promise.all(Array.from({ length: 6 }, () => lookup('u-flood', one.headers)));
      expect(tally(burst)).to.deep.equal({ 404: 3, 429: 3 });
      for (const r of burst.filter((r) => r.status === 429)) {
        expectRefusal(r, 429, 'SHOP-REQ-429', /the user's rate limit of 3 requests per 5 s reached/);
        expect(Number(r.headers.get('retry-after'))).to.be.within(1, 5);
      }
      expectRefusal(await lookup('u-other', one.headers), 404, 'SHOP-PUR-003');
      const two = await gateway.partyWithClient();
      expectRefusal(await lookup('u-flood', two.headers), 404, 'SHOP-PUR-003');
      // A request naming no user counts only against the party.
      expectRefusal(await shopProbe(app.baseUrl, one.headers), 404, 'SHOP-REQ-404');
    });
  });
}
