import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { call, expectOk, operatorHeaders } from '../support.js';

interface PromotionMasterData {
  promotion_master_id: number;
  status: string;
  created_at: string;
}

/** The whole app on PostgreSQL: the checkout context is mounted, writes its stream and its projector's row. */
describe('Promotion masters over the whole app (checkout, PostgreSQL)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.stop());

  it('creates one through the operator API and its row reaches checkout_promotion_masters', async () => {
    const created = expectOk(
      await call<PromotionMasterData>(app.baseUrl, 'POST', '/operator/v1/promotion-masters', {
        headers: operatorHeaders(),
        json: {
          title: 'Freeship 15k',
          short_title: 'Freeship',
          promotion_type: 'SHIPPING',
          code_type: 'SHARED',
          discount_config: { type: 'FIXED', amount: 15_000 },
          scope: 'PLATFORM',
          valid_from: '2026-03-01T00:00:00+07:00',
          valid_until: '2026-06-01T00:00:00+07:00',
          total_quota: 500,
        },
      }),
      201,
    );
    expect(created.status).to.equal('ACTIVE');
    const id = created.promotion_master_id;

    const read = expectOk(
      await call<PromotionMasterData>(app.baseUrl, 'GET', `/operator/v1/promotion-masters/${id}`, {
        headers: operatorHeaders(),
      }),
    );
    expect(read).to.deep.equal(created);

    const row = await eventually(async () => {
      const found = await app.container.knex('checkout_promotion_masters').where({ promotion_master_id: id }).first();
      expect(found, 'the projector row').to.not.equal(undefined);
      return found as Record<string, unknown>;
    });
    expect(row).to.include({
      title: 'Freeship 15k',
      short_title: 'Freeship',
      promotion_type: 'SHIPPING',
      code_type: 'SHARED',
      discount_type: 'FIXED',
      discount_percentage: null,
      max_discount: null,
      scope: 'PLATFORM',
      merchant_id: null,
      categories: null,
      per_user_limit: null,
      total_quota: 500,
      pin_required: false,
      status: 'ACTIVE',
      created_by: 'alice',
    });
    expect(Number(row.discount_amount)).to.equal(15_000);
    expect(Number(row.min_order_value)).to.equal(0);
    expect((row.valid_from as Date).toISOString()).to.equal('2026-02-28T17:00:00.000Z');
  });
});
