/** A promotion master as the operator API takes it (docs/checkout.md); tests override what they look at. */
export const promotionMasterBody = (overrides: Record<string, unknown> = {}) => ({
  title: ' Giảm 10% đơn từ 100k ',
  short_title: 'Giảm 10%',
  promotion_type: 'VOUCHER',
  code_type: 'UNIQUE',
  discount_config: { type: 'PERCENTAGE', percentage: 10, max_discount: 50_000 },
  min_order_value: 100_000,
  scope: 'MERCHANT',
  merchant_id: 'M001',
  categories: ['food'],
  valid_from: '2026-03-01T07:00:00+07:00',
  valid_until: '2026-04-01T00:00:00Z',
  per_user_limit: 1,
  total_quota: 1000,
  pin_required: false,
  banner_url: 'https://cdn.example.com/banner.png',
  ...overrides,
});
