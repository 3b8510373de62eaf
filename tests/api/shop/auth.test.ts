import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  call,
  expectRefusal,
  OperatorApi,
  reserveBody,
  shopHeaders,
  shopScene,
  type HeaderSet,
  type PoolData,
  type ShopMerchant,
} from '../support.js';

describe('Shop API over HTTP: authentication and required headers', () => {
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;
  let pool: PoolData;

  before(async () => {
    app = await startTestApp({ background: false });
    const scene = await shopScene(app.baseUrl);
    operator = scene.operator;
    merchant = scene.merchant;
    pool = await operator.createPool(scene.campaign.id, { totalQuantity: 10 });
  });
  after(() => app?.stop());

  /** Every purchase endpoint, called with `headers` (and a valid body where it takes one). */
  const endpoints: [string, (headers: HeaderSet) => ReturnType<typeof call>][] = [
    [
      'reserve',
      (headers) =>
        call(app.baseUrl, 'POST', '/api/v1/vouchers/reserve', {
          headers: { 'X-Idempotency-Key': randomUUID(), ...headers },
          json: reserveBody([{ pool }]),
        }),
    ],
    [
      'commit',
      (headers) =>
        call(app.baseUrl, 'POST', '/api/v1/vouchers/commit', { headers, json: { reservationKey: randomUUID() } }),
    ],
    [
      'release',
      (headers) =>
        call(app.baseUrl, 'POST', '/api/v1/vouchers/release', { headers, json: { reservationKey: randomUUID() } }),
    ],
    ['lookup', (headers) => call(app.baseUrl, 'GET', `/api/v1/vouchers/reservation/${randomUUID()}`, { headers })],
  ];

  const refusedEverywhere = async (headers: () => HeaderSet, status: number, code: string, message: RegExp) => {
    for (const [name, send] of endpoints) {
      const res = await send(headers());
      try {
        expectRefusal(res, status, code, message);
      } catch (e) {
        (e as Error).message = `${name}: ${(e as Error).message}`;
        throw e;
      }
    }
  };

  it('refuses missing client_id or client_secret with 401 SHOP-AUTH-001', async () => {
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { client_id: undefined }),
      401,
      'SHOP-AUTH-001',
      /client_id and client_secret/,
    );
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { client_secret: undefined }),
      401,
      'SHOP-AUTH-001',
      /required/,
    );
  });

  it('refuses a wrong client secret or unknown client with 401 SHOP-AUTH-001', async () => {
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { client_secret: 'test-client-secret-0123456780' }),
      401,
      'SHOP-AUTH-001',
      /invalid/,
    );
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { client_id: 'other-client' }),
      401,
      'SHOP-AUTH-001',
      /invalid/,
    );
  });

  it('refuses a missing, unknown or revoked API key with 401 SHOP-AUTH-002', async () => {
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Promotion-Api-Key': undefined }),
      401,
      'SHOP-AUTH-002',
      /required/,
    );
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Promotion-Api-Key': `pk_live_${'x'.repeat(43)}` }),
      401,
      'SHOP-AUTH-002',
      /invalid/,
    );
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Promotion-Api-Key': 'k'.repeat(5000) }),
      401,
      'SHOP-AUTH-002',
      /invalid/,
    );

    const revokedMerchant = await operator.createMerchant();
    await operator.call('POST', `/merchants/${revokedMerchant.merchantId}/api-keys/${revokedMerchant.apiKeyId}/revoke`);
    await refusedEverywhere(() => shopHeaders(revokedMerchant, 'u1'), 401, 'SHOP-AUTH-002', /revoked/);
  });

  it('refuses a missing X-Merchant-Id with 401 SHOP-AUTH-003', async () => {
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Merchant-Id': undefined }),
      401,
      'SHOP-AUTH-003',
      /X-Merchant-Id/,
    );
  });

  it("refuses merchant A's key sent as merchant B with 403 SHOP-AUTH-004", async () => {
    const other = await operator.createMerchant();
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Merchant-Id': other.merchantId }),
      403,
      'SHOP-AUTH-004',
      /does not belong/,
    );
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Merchant-Id': 'NO-SUCH-MERCHANT' }),
      403,
      'SHOP-AUTH-004',
      /does not belong/,
    );
  });

  it('refuses a missing or non-UUID X-Request-Id with 400 SHOP-REQ-001', async () => {
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Request-Id': undefined }),
      400,
      'SHOP-REQ-001',
      /X-Request-Id header is required/,
    );
    await refusedEverywhere(
      () => shopHeaders(merchant, 'u1', { 'X-Request-Id': 'req-12345' }),
      400,
      'SHOP-REQ-001',
      /X-Request-Id must be a UUID/,
    );
  });

  it('refuses a missing or malformed X-User-Id on every purchase endpoint with 400 SHOP-REQ-001', async () => {
    await refusedEverywhere(
      () => shopHeaders(merchant, undefined),
      400,
      'SHOP-REQ-001',
      /X-User-Id header is required/,
    );
    await refusedEverywhere(() => shopHeaders(merchant, 'u'.repeat(129)), 400, 'SHOP-REQ-001', /X-User-Id/);
  });

  it('checks credentials before anything else: a reserve with bad credentials and a bad body is 401, and nothing is reserved', async () => {
    const res = await call(app.baseUrl, 'POST', '/api/v1/vouchers/reserve', {
      headers: {
        ...shopHeaders(merchant, 'u1', { client_secret: 'wrong-secret-0123456789' }),
        'X-Idempotency-Key': randomUUID(),
      },
      rawBody: '{not json',
    });
    expectRefusal(res, 401, 'SHOP-AUTH-001');
    expectRefusal(
      await endpoints[0]![1](shopHeaders(merchant, 'u1', { 'X-Merchant-Id': undefined })),
      401,
      'SHOP-AUTH-003',
    );
    expect(await operator.pool(pool.poolId)).to.include({ remainingQuantity: 10, reservedQuantity: 0 });
  });
});

describe('Shop API over HTTP: API key expiry', () => {
  const clock = fixedClock('2026-03-01T03:00:00.000Z');
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ background: false, clock });
  });
  after(() => app?.stop());

  it('accepts a key until its expiresAt and refuses it from then on with 401 SHOP-AUTH-002', async () => {
    const operator = new OperatorApi(app.baseUrl);
    const merchant = await operator.createMerchant({ apiKeyExpiresAt: '2026-03-01T03:01:00.000Z' });
    const lookup = () =>
      call(app.baseUrl, 'GET', `/api/v1/vouchers/reservation/${randomUUID()}`, {
        headers: shopHeaders(merchant, 'u1'),
      });

    expectRefusal(await lookup(), 404, 'SHOP-PUR-003');
    clock.advance(59_999);
    expectRefusal(await lookup(), 404, 'SHOP-PUR-003');
    clock.advance(1);
    expectRefusal(await lookup(), 401, 'SHOP-AUTH-002', /expired/);
  });
});
