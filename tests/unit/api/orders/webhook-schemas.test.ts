import { expect } from 'chai';
import { cancelledBody, createdBody, updatedBody } from '../../../../api/orders/webhook-schemas.js';
import { issueField } from '../../../../api/shared/validation.js';

/** Every field rule of the seed's tables (docs/orders-fields.md, "Field rules"), accepted and refused. */
const valid = () => ({
  secure_hash: 'a'.repeat(64),
  event_timestamp: 1_767_225_600_000,
  created_by: 'u1',
  platform_code: 'HOST',
  miniapp_id: 'app',
  order: {
    order_id: 'o1',
    order_type: 'CAR_PURCHASE',
    deeplink: 'superapp://orders/o1',
    status: 'CREATED',
    pnl_order_status: 'N',
    payment_status: 'UNPAID',
    customer: { customer_id: 'u1', name: 'An', phone: '0901234567', email: 'an@example.vn' },
    items: [
      {
        item_id: 'i1',
        name: 'Car',
        quantity: 1,
        unit_price: 10,
        total_price: 10,
        currency: 'VND',
        sub_items: [{ sub_item_id: 's1', name: 'Mat', quantity: 2, unit_price: 0, total_price: 0, currency: 'VND' }],
      },
    ],
    fees: [{ fee_code: 'SHIP', amount: 0, metadata: { a: 1 } }],
    promotion_infos: [{ voucher_code: 'V', discount_amount: 1, extra_data: {} }],
    transactions: [
      { transaction_id: 't1', provider: 'P', method: 'CARD', amount: 9, status: 'COMPLETED', captured_at: 1 },
    ],
    amounts: { currency: 'VND', total_amount: 10, grand_total: 9 },
  },
});

type Body = ReturnType<typeof valid>;
const x = (n: number) => 'x'.repeat(n);

/** [what, change, refused field or null when accepted] */
const cases: [string, (b: Body) => void, string | null][] = [
  ['the valid body', () => {}, null],
  ['secure_hash of 63 characters', (b) => (b.secure_hash = 'a'.repeat(63)), 'secure_hash'],
  ['secure_hash not hex', (b) => (b.secure_hash = 'g'.repeat(64)), 'secure_hash'],
  ['event_timestamp not an integer', (b) => (b.event_timestamp = 1.5), 'event_timestamp'],
  ['created_by missing', (b) => delete (b as Partial<Body>).created_by, 'created_by'],
  ['created_by of 128', (b) => (b.created_by = x(128)), null],
  ['created_by of 129', (b) => (b.created_by = x(129)), 'created_by'],
  ['platform_code of 65', (b) => (b.platform_code = x(65)), 'platform_code'],
  ['miniapp_id missing', (b) => delete (b as Partial<Body>).miniapp_id, 'miniapp_id'],
  ['order_id of 64', (b) => (b.order.order_id = x(64)), null],
  ['order_id of 65', (b) => (b.order.order_id = x(65)), 'order.order_id'],
  ['order_type missing', (b) => delete (b.order as Partial<Body['order']>).order_type, 'order.order_type'],
  ['order_type not a named one (accepted, flagged)', (b) => (b.order.order_type = 'TAXI'), null],
  ['order_name of 257', (b) => Object.assign(b.order, { order_name: x(257) }), 'order.order_name'],
  ['category_code of 65', (b) => Object.assign(b.order, { category_code: x(65) }), 'order.category_code'],
  ['status missing', (b) => delete (b.order as Partial<Body['order']>).status, 'order.status'],
  ['pnl_order_status of 65', (b) => (b.order.pnl_order_status = x(65)), 'order.pnl_order_status'],
  [
    'pnl_order_status_label of 257',
    (b) => Object.assign(b.order, { pnl_order_status_label: x(257) }),
    'order.pnl_order_status_label',
  ],
  ['payment_status missing', (b) => delete (b.order as Partial<Body['order']>).payment_status, 'order.payment_status'],
  ['customer missing', (b) => delete (b.order as Partial<Body['order']>).customer, 'order.customer'],
  ['customer_id of 65', (b) => (b.order.customer.customer_id = x(65)), 'order.customer.customer_id'],
  ['customer name of 129', (b) => (b.order.customer.name = x(129)), 'order.customer.name'],
  ['phone of 9 digits', (b) => (b.order.customer.phone = '090123456'), 'order.customer.phone'],
  ['phone of 11 digits', (b) => (b.order.customer.phone = '09012345678'), null],
  ['phone of 12 digits', (b) => (b.order.customer.phone = '090123456789'), 'order.customer.phone'],
  ['phone with a +', (b) => (b.order.customer.phone = '+8490123456'), 'order.customer.phone'],
  ['email not an e-mail', (b) => (b.order.customer.email = 'an@'), 'order.customer.email'],
  ['items empty', (b) => (b.order.items = []), 'order.items'],
  ['items absent (zero-item order)', (b) => delete (b.order as Partial<Body['order']>).items, null],
  ['item quantity 0', (b) => (b.order.items[0]!.quantity = 0), 'order.items[0].quantity'],
  ['item quantity 1.5', (b) => (b.order.items[0]!.quantity = 1.5), 'order.items[0].quantity'],
  ['item unit_price negative', (b) => (b.order.items[0]!.unit_price = -1), 'order.items[0].unit_price'],
  [
    'item total_price missing',
    (b) => delete (b.order.items[0] as Partial<Body['order']['items'][0]>).total_price,
    'order.items[0].total_price',
  ],
  ['item currency of 9', (b) => (b.order.items[0]!.currency = x(9)), 'order.items[0].currency'],
  ['item_id of 65', (b) => (b.order.items[0]!.item_id = x(65)), 'order.items[0].item_id'],
  ['item name of 257', (b) => (b.order.items[0]!.name = x(257)), 'order.items[0].name'],
  ['deprecated item_category', (b) => Object.assign(b.order.items[0]!, { item_category: 'CARS' }), null],
  [
    'item image_url not a URL',
    (b) => Object.assign(b.order.items[0]!, { image_url: 'nope' }),
    'order.items[0].image_url',
  ],
  [
    'item attributes an array',
    (b) => Object.assign(b.order.items[0]!, { attributes: [1] }),
    'order.items[0].attributes',
  ],
  [
    'sub_item without sub_item_id',
    (b) => delete (b.order.items[0]!.sub_items[0] as { sub_item_id?: string }).sub_item_id,
    'order.items[0].sub_items[0].sub_item_id',
  ],
  [
    'sub_item quantity 0',
    (b) => (b.order.items[0]!.sub_items[0]!.quantity = 0),
    'order.items[0].sub_items[0].quantity',
  ],
  ['fee without amount', (b) => delete (b.order.fees[0] as { amount?: number }).amount, 'order.fees[0].amount'],
  ['fee_code of 65', (b) => (b.order.fees[0]!.fee_code = x(65)), 'order.fees[0].fee_code'],
  ['fee metadata not an object', (b) => Object.assign(b.order.fees[0]!, { metadata: 'x' }), 'order.fees[0].metadata'],
  [
    'promotion campaign_name of 255',
    (b) => Object.assign(b.order.promotion_infos[0]!, { campaign_name: x(255) }),
    null,
  ],
  [
    'promotion campaign_name of 256',
    (b) => Object.assign(b.order.promotion_infos[0]!, { campaign_name: x(256) }),
    'order.promotion_infos[0].campaign_name',
  ],
  [
    'promotion discount_type of 33',
    (b) => Object.assign(b.order.promotion_infos[0]!, { discount_type: x(33) }),
    'order.promotion_infos[0].discount_type',
  ],
  [
    'promotion discount_amount negative',
    (b) => (b.order.promotion_infos[0]!.discount_amount = -1),
    'order.promotion_infos[0].discount_amount',
  ],
  [
    'transaction without provider',
    (b) => delete (b.order.transactions[0] as { provider?: string }).provider,
    'order.transactions[0].provider',
  ],
  ['transaction status of 33', (b) => (b.order.transactions[0]!.status = x(33)), 'order.transactions[0].status'],
  [
    'transaction note of 513',
    (b) => Object.assign(b.order.transactions[0]!, { note: x(513) }),
    'order.transactions[0].note',
  ],
  [
    'transaction captured_at fractional',
    (b) => (b.order.transactions[0]!.captured_at = 1.5),
    'order.transactions[0].captured_at',
  ],
  ['amounts missing', (b) => delete (b.order as Partial<Body['order']>).amounts, 'order.amounts'],
  [
    'amounts currency missing',
    (b) => delete (b.order.amounts as { currency?: string }).currency,
    'order.amounts.currency',
  ],
  ['grand_total above total_amount', (b) => (b.order.amounts.grand_total = 11), 'order.amounts.grand_total'],
  ['grand_total equal to total_amount', (b) => (b.order.amounts.grand_total = 10), null],
  ['paid_amount negative', (b) => Object.assign(b.order.amounts, { paid_amount: -1 }), 'order.amounts.paid_amount'],
  ['order metadata an array', (b) => Object.assign(b.order, { metadata: [] }), 'order.metadata'],
  ['order attributes null', (b) => Object.assign(b.order, { attributes: null }), 'order.attributes'],
  ['a field sent as null', (b) => Object.assign(b.order, { order_name: null }), 'order.order_name'],
  ['platform_code missing', (b) => delete (b as Partial<Body>).platform_code, 'platform_code'],
  [
    'pnl_order_status missing',
    (b) => delete (b.order as Partial<Body['order']>).pnl_order_status,
    'order.pnl_order_status',
  ],
  [
    'total_amount missing',
    (b) => delete (b.order.amounts as { total_amount?: number }).total_amount,
    'order.amounts.total_amount',
  ],
  [
    'grand_total missing',
    (b) => delete (b.order.amounts as { grand_total?: number }).grand_total,
    'order.amounts.grand_total',
  ],
  ['total_amount above 2^53 - 1', (b) => (b.order.amounts.total_amount = 2 ** 53), 'order.amounts.total_amount'],
  [
    'total_amount a string',
    (b) => Object.assign(b.order.amounts, { total_amount: '10' }),
    'order.amounts.total_amount',
  ],
  ['email of 254', (b) => (b.order.customer.email = `${x(243)}@example.vn`), null],
  ['email of 255', (b) => (b.order.customer.email = `${x(244)}@example.vn`), 'order.customer.email'],
  ['description of 4096', (b) => Object.assign(b.order, { description: x(4096) }), null],
  ['description of 4097', (b) => Object.assign(b.order, { description: x(4097) }), 'order.description'],
  [
    'image_url not http(s)',
    (b) => Object.assign(b.order, { image_url: 'ftp://cdn.example.vn/a.png' }),
    'order.image_url',
  ],
  ['deeplink empty', (b) => Object.assign(b.order, { deeplink: '' }), 'order.deeplink'],
  ['item_type of 65', (b) => Object.assign(b.order.items[0]!, { item_type: x(65) }), 'order.items[0].item_type'],
  [
    'item attributes a string',
    (b) => Object.assign(b.order.items[0]!, { attributes: '{}' }),
    'order.items[0].attributes',
  ],
  [
    'sub_item attributes an array',
    (b) => Object.assign(b.order.items[0]!.sub_items[0]!, { attributes: [] }),
    'order.items[0].sub_items[0].attributes',
  ],
  [
    'promotion extra_data a number',
    (b) => Object.assign(b.order.promotion_infos[0]!, { extra_data: 1 }),
    'order.promotion_infos[0].extra_data',
  ],
  ['transaction amount negative', (b) => (b.order.transactions[0]!.amount = -0.01), 'order.transactions[0].amount'],
];

describe('webhook field rules (docs/orders-fields.md, "Field rules")', () => {
  for (const [what, change, field] of cases) {
    it(`order.created: ${what} → ${field === null ? 'accepted' : `refused naming ${field}`}`, () => {
      const body = valid();
      change(body);
      const parsed = createdBody.safeParse(body);
      if (field === null) expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true);
      else {
        expect(parsed.success).to.equal(false);
        expect(issueField(parsed.error!.issues[0]!)).to.equal(field);
      }
    });
  }

  it('order.updated: order_id and what changed; amounts with both or neither of grand_total and total_amount', () => {
    const update = (order: Record<string, unknown>) =>
      updatedBody.safeParse({ secure_hash: 'a'.repeat(64), event_timestamp: 1, order: { order_id: 'o1', ...order } });
    expect(update({}).success).to.equal(true);
    expect(update({ status: 'PAID', amounts: { paid_amount: 5 } }).success).to.equal(true);
    expect(update({ amounts: { grand_total: 5, total_amount: 6 } }).success).to.equal(true);
    const half = update({ amounts: { grand_total: 5 } });
    expect(half.success).to.equal(false);
    expect(issueField(half.error!.issues[0]!)).to.equal('order.amounts.total_amount');
    expect(update({ amounts: { grand_total: 7, total_amount: 6 } }).success).to.equal(false);
    const noId = updatedBody.safeParse({ secure_hash: 'a'.repeat(64), event_timestamp: 1, order: {} });
    expect(issueField(noId.error!.issues[0]!)).to.equal('order.order_id');
  });

  it('order.updated and order.cancelled: the fields they carry follow the same rules', () => {
    for (const schema of [updatedBody, cancelledBody]) {
      const field = (order: Record<string, unknown>) => {
        const parsed = schema.safeParse({
          secure_hash: 'a'.repeat(64),
          event_timestamp: 1,
          order: { order_id: 'o1', ...order },
        });
        return parsed.success ? null : issueField(parsed.error.issues[0]!);
      };
      expect(field({})).to.equal(null);
      expect(field({ status: 'CANCELLED', business_unit_id: 'BU-1' })).to.equal(null);
      expect(field({ customer: { customer_id: 'u1', name: 'An', phone: '090123' } })).to.equal('order.customer.phone');
      expect(field({ items: [] })).to.equal('order.items');
      expect(
        field({ items: [{ item_id: 'i', name: 'n', quantity: 0, unit_price: 1, total_price: 1, currency: 'VND' }] }),
      ).to.equal('order.items[0].quantity');
      expect(field({ amounts: { paid_amount: -1 } })).to.equal('order.amounts.paid_amount');
      expect(field({ metadata: 'x' })).to.equal('order.metadata');
      expect(field({ status: x(65) })).to.equal('order.status');
      expect(field({ order_id: x(65) })).to.equal('order.order_id');
    }
  });
});
