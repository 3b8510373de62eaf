import { expect } from 'chai';
import type { Page, ShopVoucherResponse } from '../../../application/shop/catalog-queries.js';
import { voucherJson, voucherPageJson } from '../../../api/shop/voucher-json.js';

/** What express's res.json sends for the shop envelope. */
const expected = (data: unknown) => Buffer.from(JSON.stringify({ code: 'SUCCESS', message: 'Success', data }), 'utf8');

function voucher(overrides: Partial<ShopVoucherResponse> = {}): ShopVoucherResponse {
  return {
    id: 101,
    categoryId: 7,
    miniAppIds: Object.freeze(['app.food', 'app.coffee']) as string[],
    campaign: {
      id: 12,
      name: 'Siêu sale "cuối tuần" – Giảm giá \\ cực sốc 🔥',
      tag: 'FLASH_SALE',
      displayPriority: 3,
      validity: { startAt: '2026-11-20T00:00:00.000Z', endAt: '2026-11-30T00:00:00.000Z' },
      countdown: { endAt: '2026-11-30T00:00:00.000Z', remainingSeconds: 12345 },
    },
    display: Object.freeze({
      title: 'Voucher Highlands Coffee 50.000đ – Cà phê sữa đá',
      shortTitle: 'Highlands 50K',
      brandName: 'Highlands\tCoffee\u0001',
      logoUrl: 'https://cdn.example.vn/l.png',
      bannerUrl: 'https://cdn.example.vn/b.png',
      thumbnailUrl: 'https://cdn.example.vn/t.png',
      description: 'Áp dụng toàn quốc.\nKhông áp dụng đồng thời. \ud800',
    }),
    pricing: {
      faceValue: 50_000,
      sellingPrice: 45_000,
      discountedPrice: 39_000,
      currency: 'VND',
      discountPercentage: 22,
    },
    inventory: { totalQuantity: 1000, remainingQuantity: 750, isOutOfStock: false },
    userPurchaseUsage: { dailyPurchasedQty: 1, totalPurchasedQty: 3, dailyRemaining: 1, totalRemaining: null },
    validity: Object.freeze({ startAt: '2026-11-20T00:00:00.000Z', endAt: '2026-12-31T00:00:00.000Z' }),
    terms: Object.freeze({
      usageType: 'OFFLINE' as const,
      termsAndConditions: 'Voucher có giá trị sử dụng một lần.',
      validityDays: 30,
      usageLimit: 5,
      maxPerDay: 2,
      maxPerOrder: null,
    }),
    ...overrides,
  };
}

describe('voucher answers written as JSON', () => {
  it('given a voucher with every field, when written, then the bytes are those of JSON.stringify of the envelope', () => {
    const v = voucher();
    expect(voucherJson(v).equals(expected(v))).to.equal(true);
  });

  it('given nulls where the spec allows them, when written, then the bytes are those of JSON.stringify', () => {
    const v = voucher({
      campaign: { ...voucher().campaign, countdown: null, tag: 'HOT_DEAL' },
      pricing: { faceValue: 0, sellingPrice: 0, discountedPrice: null, currency: 'VPOINT', discountPercentage: 0 },
      inventory: { totalQuantity: 0, remainingQuantity: 0, isOutOfStock: true },
      userPurchaseUsage: null,
      validity: null,
    });
    expect(voucherJson(v).equals(expected(v))).to.equal(true);
  });

  it('given a page of vouchers, and an empty page, when written, then the bytes are those of JSON.stringify of the envelope', () => {
    const page: Page<ShopVoucherResponse> = {
      content: [voucher(), voucher({ id: 102, userPurchaseUsage: null }), voucher({ id: 103 })],
      page: { size: 3, number: 1, totalElements: 40, totalPages: 14 },
    };
    expect(voucherPageJson(page).equals(expected(page))).to.equal(true);
    const empty: Page<ShopVoucherResponse> = {
      content: [],
      page: { size: 20, number: 9, totalElements: 40, totalPages: 2 },
    };
    expect(voucherPageJson(empty).equals(expected(empty))).to.equal(true);
  });

  it('given objects that are not frozen, when they change between answers, then each answer shows them as they are', () => {
    const display = { ...voucher().display };
    const v = voucher({ display });
    expect(voucherJson(v).equals(expected(v))).to.equal(true);
    display.title = 'Đổi tên';
    expect(JSON.parse(voucherJson(v).toString('utf8')).data.display.title).to.equal('Đổi tên');
  });

  it('given a frozen part written before, when written again in another voucher, then the answer is still exact', () => {
    const first = voucher();
    voucherJson(first);
    const second = voucher({
      id: 999,
      inventory: { totalQuantity: 5, remainingQuantity: 1, isOutOfStock: false },
      display: first.display,
      terms: first.terms,
    });
    expect(voucherJson(second).equals(expected(second))).to.equal(true);
  });
});
