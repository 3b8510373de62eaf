/**
 * The checkout's messages as a client reads them (issue 30, item 12; docs/checkout.md, "Messages"): for every code
 * the seed's error table gives a text for, `message` is that text, and what was wrong this time is in `data`
 * (`detail`, `field`, `reason`, `promotion_id`, the figures). One row per code, each refusal triggered through HTTP
 * over the in-memory store. The expected texts are the seed's table (spec part B, "Errors"), copied here, not read
 * from the code.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { EventStore } from '../../../application/shared/event-store.js';
import {
  apiSpecification,
  expectResponse,
  satisfying,
  type ApiRequest,
  type ApiScene,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { fastShopMerchant, fastShopScene } from '../../support/fast-shop-scene.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { promotionMasterBody } from '../../support/checkout-fixtures.js';
import { operatorHeaders, type Envelope } from '../support.js';

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now });
const merchantId = fastShopMerchant.merchantId;

/** One order of `merchant` of one line; its subtotal is the line's. */
const orders = (subtotal = 150_000, merchant = merchantId) => [
  { merchant_id: merchant, subtotal, items: [{ item_id: 'i1', quantity: 1, unit_price: subtotal }] },
];

/** The checkout and the operator's promotion endpoints, called in one scene. */
class Checkout {
  constructor(readonly scene: ApiScene) {}

  private async created<T>(path: string, json: unknown): Promise<T> {
    const { response } = await this.scene
      .when<Envelope<T>>({ method: 'POST', path: `/operator/v1${path}`, headers: operatorHeaders(), json })
      .then(expectResponse(201));
    return response.body.data;
  }

  /** A master of the scene's merchant (no categories, no limits unless told), valid for a month. */
  async master(overrides: Record<string, unknown> = {}): Promise<number> {
    const body = promotionMasterBody({
      merchant_id: merchantId,
      categories: null,
      per_user_limit: null,
      total_quota: null,
      ...overrides,
    });
    return (await this.created<{ promotion_master_id: number }>('/promotion-masters', body)).promotion_master_id;
  }

  /** One promotion of the master for each user; their ids. */
  async issue(masterId: number, ...users: string[]): Promise<number[]> {
    const { issued } = await this.created<{ issued: { promotion_id: number }[] }>(
      `/promotion-masters/${masterId}/issued-promotions`,
      { recipients: users.map((user_id) => ({ user_id })) },
    );
    return issued.map((p) => p.promotion_id);
  }

  request(path: string, json: unknown, user = 'u-1', extra: Record<string, string> = {}): ApiRequest {
    return {
      method: 'POST',
      path: `/loyalty/v1/promotion/${path}`,
      headers: {
        ...gatewayHeaders(),
        env: 'dev',
        'X-Auth-Audience': 'superapp',
        'X-Merchant-Id': merchantId,
        'X-App-Id': 'miniapp-1',
        'X-App-User-Id': user,
        'X-Promotion-API-Key': fastShopMerchant.apiKey,
        'X-Request-Id': randomUUID(),
        ...extra,
      },
      json,
    };
  }

  preview(promotionId: number, codeType = 'UNIQUE', user = 'u-1', subtotal = 150_000, merchant = merchantId) {
    return this.request(
      'preview-discount',
      { selected_promotions: [{ promotion_id: promotionId, code_type: codeType }], orders: orders(subtotal, merchant) },
      user,
    );
  }

  reserve(promotionId: number, orderId: string, user = 'u-1'): ApiRequest {
    return this.request(
      'reserve',
      {
        order_id: orderId,
        selected_promotions: [{ promotion_id: promotionId, code_type: 'UNIQUE' }],
        orders: orders(),
      },
      user,
      { 'X-Idempotency-Key': randomUUID() },
    );
  }

  step(path: 'confirm' | 'release' | 'refund', reservationKey: string, orderId: string): ApiRequest {
    return this.request(path, { reservation_key: reservationKey, order_id: orderId });
  }

  /** Sends a request that must succeed; its data. */
  async ok<T>(request: ApiRequest): Promise<T> {
    const { response } = await this.scene.when<Envelope<T>>(request).then(expectResponse(200));
    expect(response.body.code, response.text).to.equal('0');
    return response.body.data;
  }

  async reserved(promotionId: number, orderId: string, user = 'u-1'): Promise<string> {
    return (await this.ok<{ reservation_key: string }>(this.reserve(promotionId, orderId, user))).reservation_key;
  }
}

/** A store whose reads fail: as PostgreSQL's when it is away (`transient`), or as a bug. */
const failingStore = (store: EventStore, transient: boolean): EventStore =>
  new Proxy(store, {
    get: () => () =>
      Promise.reject(
        transient ? Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) : new Error('a bug'),
      ),
  });
const withStore = (transient: boolean) =>
  apiSpecification({ app: (deps) => buildFastApp({ ...deps, store: failingStore(deps.store, transient) }), now })(
    ...fastShopScene,
  );

interface Row {
  code: string;
  status: number;
  /** The seed's message for the code (spec part B, "Errors"). */
  message: string;
  scene?: () => ApiScene;
  /** Sets the scene up through HTTP; answers the refused request and the data expected with it. */
  arrange(c: Checkout): Promise<{ request: ApiRequest; data: Record<string, unknown> | null }>;
}

const rows: Row[] = [
  {
    code: '8001',
    status: 400,
    message: 'Voucher not applicable',
    async arrange(c) {
      const [p] = await c.issue(await c.master(), 'u-1');
      return {
        request: c.preview(p!, 'UNIQUE', 'u-1', 150_000, 'M-OTHER'),
        data: {
          promotion_id: p,
          reason: 'SCOPE_MISMATCH',
          detail: `promotion ${p} is for a merchant with no order here`,
        },
      };
    },
  },
  {
    code: '8002',
    status: 400,
    message: 'Invalid voucher code',
    async arrange(c) {
      const [p] = await c.issue(await c.master(), 'u-1');
      return {
        request: c.preview(p!, 'SHARED'),
        data: { promotion_id: p, field: 'selected_promotions[0].code_type', detail: `promotion ${p} is UNIQUE` },
      };
    },
  },
  {
    code: '8003',
    status: 404,
    message: 'Voucher not found',
    async arrange(c) {
      return { request: c.preview(999_999), data: { promotion_id: 999_999, detail: 'no promotion 999999' } };
    },
  },
  {
    code: '8004',
    status: 409,
    message: 'Voucher already reserved',
    async arrange(c) {
      const [p] = await c.issue(await c.master(), 'u-1');
      await c.reserved(p!, 'order-1');
      return {
        request: c.preview(p!),
        data: { promotion_id: p, reason: 'RESERVED', detail: `promotion ${p} is held by a checkout` },
      };
    },
  },
  {
    code: '8004',
    status: 409,
    message: 'Voucher already reserved',
    async arrange(c) {
      // One promotion per order: a second one for a held order (docs/checkout.md, "One promotion per order").
      const [p, q] = await c.issue(await c.master(), 'u-1', 'u-1');
      await c.reserved(p!, 'order-1');
      return {
        request: c.reserve(q!, 'order-1'),
        data: {
          field: 'order_id',
          reason: 'ORDER_ALREADY_RESERVED',
          detail: 'order order-1 holds a promotion already (one per order): release it first',
        },
      };
    },
  },
  {
    code: '8005',
    status: 409,
    message: 'Voucher out of stock',
    async arrange(c) {
      const [p, q] = await c.issue(await c.master({ total_quota: 1 }), 'u-1', 'u-2');
      await c.reserved(p!, 'order-1');
      return {
        request: c.preview(q!, 'UNIQUE', 'u-2'),
        data: { promotion_id: q, reason: 'QUOTA_EXHAUSTED', detail: `promotion ${q} has no uses left` },
      };
    },
  },
  {
    code: '8006',
    status: 422,
    message: 'Order minimum not met',
    async arrange(c) {
      const [p] = await c.issue(await c.master({ min_order_value: 100_000 }), 'u-1');
      return {
        request: c.preview(p!, 'UNIQUE', 'u-1', 90_000),
        data: {
          promotion_id: p,
          reason: 'MIN_ORDER_NOT_MET',
          min_order_value: 100_000,
          remaining_amount: 10_000,
          detail: `the subtotal 90000 is below promotion ${p}'s minimum 100000: 10000 more is needed`,
        },
      };
    },
  },
  {
    code: '8007',
    status: 422,
    message: 'Voucher expired',
    async arrange(c) {
      const [p] = await c.issue(await c.master({ valid_until: '2026-03-01T11:00:00Z' }), 'u-1');
      c.scene.clock.advance(2 * 3600_000);
      return {
        request: c.preview(p!),
        data: { promotion_id: p, reason: 'EXPIRED', detail: `promotion ${p} expired` },
      };
    },
  },
  {
    code: '8008',
    status: 422,
    message: 'Usage limit exceeded',
    async arrange(c) {
      const [p, q] = await c.issue(await c.master({ per_user_limit: 1 }), 'u-1', 'u-1');
      await c.reserved(p!, 'order-1');
      return {
        request: c.preview(q!),
        data: {
          promotion_id: q,
          reason: 'USAGE_LIMIT_REACHED',
          detail: `the user reached promotion ${q}'s usage limit`,
        },
      };
    },
  },
  {
    code: '8009',
    status: 422,
    message: 'User not eligible',
    async arrange(c) {
      const [p] = await c.issue(await c.master(), 'u-1');
      return {
        request: c.preview(p!, 'UNIQUE', 'u-2'),
        data: { promotion_id: p, detail: `promotion ${p} is not in this user's wallet` },
      };
    },
  },
  {
    code: '8010',
    status: 404,
    message: 'Reservation not found',
    async arrange(c) {
      return {
        request: c.step('confirm', randomUUID(), 'order-1'),
        data: { detail: 'no such reservation for this order and user' },
      };
    },
  },
  {
    code: '8011',
    status: 409,
    message: 'Reservation expired',
    scene: () =>
      apiSpecification({
        app: (deps) => buildFastApp({ ...deps, env: { CHECKOUT_RESERVATION_TTL_SECONDS: '60' } }),
        now,
      })(...fastShopScene),
    async arrange(c) {
      const [p] = await c.issue(await c.master(), 'u-1');
      const key = await c.reserved(p!, 'order-1');
      c.scene.clock.advance(120_000);
      return {
        request: c.step('confirm', key, 'order-1'),
        data: { reservation_key: key, detail: `reservation ${key} expired at 2026-03-01T10:01:00.000Z` },
      };
    },
  },
  {
    code: '8012',
    status: 409,
    message: 'Reservation already confirmed',
    async arrange(c) {
      const [p] = await c.issue(await c.master(), 'u-1');
      const key = await c.reserved(p!, 'order-1');
      await c.ok(c.step('confirm', key, 'order-1'));
      return {
        request: c.step('release', key, 'order-1'),
        data: { reservation_key: key, detail: `reservation ${key} was confirmed already` },
      };
    },
  },
  {
    code: '8500',
    status: 500,
    message: 'Promotion service error',
    scene: () => withStore(false),
    async arrange(c) {
      return { request: c.preview(1), data: null };
    },
  },
  {
    code: '8501',
    status: 502,
    message: 'Promotion service timeout',
    scene: () => withStore(true),
    async arrange(c) {
      return {
        request: c.preview(1),
        data: { detail: satisfying((d) => typeof d === 'string' && /cannot reach its data/.test(d), 'why') },
      };
    },
  },
];

describe("Checkout API, fast: each of the seed's codes answers the seed's message, the specifics in data", () => {
  for (const row of rows)
    it(`${row.code} "${row.message}"`, async () => {
      const c = new Checkout(row.scene?.() ?? given(...fastShopScene));
      const { request, data } = await row.arrange(c);
      await c.scene
        .when(request)
        .then(expectResponse(row.status, { body: { code: row.code, message: row.message, data } }));
    });
});
