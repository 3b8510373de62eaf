import {
  apiSpecification,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  matching,
  type ApiRequest,
} from '../../support/api-spec.js';
import { promotionMasterBody } from '../../support/checkout-fixtures.js';
import { buildFastApp } from '../../support/fast-app.js';
import { operatorHeaders } from '../support.js';

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now, lastIds: { promotionMaster: 41 } });
const create = (json: unknown, headers: Record<string, string> = {}): ApiRequest => ({
  method: 'POST',
  path: '/operator/v1/promotion-masters',
  headers: { ...operatorHeaders(), ...headers },
  json,
});

const body = promotionMasterBody();

const answered = {
  promotion_master_id: 42,
  title: 'Giảm 10% đơn từ 100k',
  short_title: 'Giảm 10%',
  promotion_type: 'VOUCHER',
  code_type: 'UNIQUE',
  discount_config: { type: 'PERCENTAGE', percentage: 10, max_discount: 50_000 },
  min_order_value: 100_000,
  scope: 'MERCHANT',
  merchant_id: 'M001',
  categories: ['food'],
  valid_from: '2026-03-01T00:00:00.000Z',
  valid_until: '2026-04-01T00:00:00.000Z',
  per_user_limit: 1,
  total_quota: 1000,
  pin_required: false,
  logo_url: null,
  banner_url: 'https://cdn.example.com/banner.png',
  status: 'ACTIVE',
  created_at: now,
};

const createdEvent = {
  type: 'PromotionMasterCreated',
  data: {
    promotionMasterId: 42,
    title: 'Giảm 10% đơn từ 100k',
    shortTitle: 'Giảm 10%',
    promotionType: 'VOUCHER',
    codeType: 'UNIQUE',
    discount: { type: 'PERCENTAGE', percentage: 10, maxDiscount: 50_000 },
    minOrderValue: 100_000,
    scope: { type: 'MERCHANT', merchantId: 'M001' },
    categories: ['food'],
    validFrom: '2026-03-01T00:00:00.000Z',
    validUntil: '2026-04-01T00:00:00.000Z',
    perUserLimit: 1,
    totalQuota: 1000,
    pinRequired: false,
    logoUrl: null,
    bannerUrl: 'https://cdn.example.com/banner.png',
    status: 'ACTIVE',
    createdAt: now,
  },
  metadata: { actor: { operator: 'alice' } },
};

describe('Operator API, fast: promotion masters (checkout)', () => {
  it('creates a promotion master: 201 in the envelope, PromotionMasterCreated appended by the operator', () =>
    given()
      .when(create(body))
      .then(
        expectResponse(201, { body: { code: 'SUCCESS', message: 'Success', data: answered } }),
        expectAppended({ 'promotionMaster-42': [createdEvent] }),
      ));

  it('refuses a malformed body with 400 naming the field, and appends nothing', () =>
    given()
      .when(create({ ...body, discount_config: { type: 'PERCENTAGE', percentage: 101, max_discount: 1 } }))
      .then(
        expectResponse(400, {
          body: {
            code: 'OPS-REQ-001',
            message: 'discount_config.percentage: must be an integer from 1 to 100',
            data: { field: 'discount_config.percentage' },
          },
        }),
        expectNoNewEvents(),
      ));

  it("refuses what the decider rules out with 400 naming the field in the interface's terms", () =>
    given()
      .when(create({ ...body, per_user_limit: 5, total_quota: 4 }))
      .then(
        expectResponse(400, {
          body: {
            code: 'OPS-REQ-001',
            message: 'per_user_limit must not exceed total_quota',
            data: { field: 'per_user_limit' },
          },
        }),
        expectNoNewEvents(),
      ));

  it('refuses a MERCHANT scope without merchant_id, and a field it does not know', async () => {
    await given()
      .when(create({ ...body, merchant_id: undefined }))
      .then(
        expectResponse(400, {
          body: {
            code: 'OPS-REQ-001',
            message: 'merchant_id: is required for scope MERCHANT',
            data: { field: 'merchant_id' },
          },
        }),
        expectNoNewEvents(),
      );
    await given()
      .when(create({ ...body, discount: 5 }))
      .then(
        expectResponse(400, {
          body: {
            code: 'OPS-REQ-001',
            message: "discount: Unrecognized key(s) in object: 'discount'",
            data: { field: 'discount' },
          },
        }),
        expectNoNewEvents(),
      );
  });

  it('answers a resend under its X-Idempotency-Key with the first creation and appends nothing; refuses another body', async () => {
    const scene = given();
    const key = { 'X-Idempotency-Key': 'pm-create-1' };
    await scene
      .when(create(body, key))
      .then(expectResponse(201, { body: { code: 'SUCCESS', message: 'Success', data: answered } }));
    scene.clock.advance(60_000);
    await scene
      .when(create(body, key))
      .then(
        expectResponse(201, { body: { code: 'SUCCESS', message: 'Success', data: answered } }),
        expectNoNewEvents(),
      );
    await scene
      .when(create({ ...body, title: 'Another' }, key))
      .then(expectResponse(409, { body: matching({ code: 'OPS-CONFLICT', data: null }) }), expectNoNewEvents());
  });

  it('reads a promotion master from its stream; 404 for an unknown one', async () => {
    const scene = given();
    await scene.when(create(body)).then(expectResponse(201));
    await scene
      .when({ method: 'GET', path: '/operator/v1/promotion-masters/42', headers: operatorHeaders() })
      .then(
        expectResponse(200, { body: { code: 'SUCCESS', message: 'Success', data: answered } }),
        expectNoNewEvents(),
      );
    await scene.when({ method: 'GET', path: '/operator/v1/promotion-masters/43', headers: operatorHeaders() }).then(
      expectResponse(404, {
        body: { code: 'OPS-NOT-FOUND', message: 'promotion master 43 does not exist', data: null },
      }),
    );
  });
});
