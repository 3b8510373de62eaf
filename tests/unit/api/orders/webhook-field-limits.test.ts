/**
 * The order webhooks' field rules read from the specification's tables (spec 002 part A, "Resources and their
 * fields", "Limits", "Versioning"; summarised in docs/orders-fields.md, "Field rules"), not from the schemas: one row
 * per field, with the spec's line, generates its cases on every event that carries it. Limits, money and quantity
 * rules apply wherever the field is sent (the Limits table names no event).
 */
import { expect } from 'chai';
import type { ZodTypeAny } from 'zod';
import { cancelledBody, createdBody, updatedBody } from '../../../../api/orders/webhook-schemas.js';
import { issueField } from '../../../../api/shared/validation.js';

type Event = 'created' | 'updated' | 'cancelled';
const everyEvent: Event[] = ['created', 'updated', 'cancelled'];
const schemas: Record<Event, ZodTypeAny> = { created: createdBody, updated: updatedBody, cancelled: cancelledBody };

/** The events that refuse the field missing, and those that accept it left out. */
interface Required {
  refused: Event[];
  accepted: Event[];
}
/** Envelope (lines 27-28, 32) and order.order_id (line 176): every event. */
const ALWAYS: Required = { refused: everyEvent, accepted: [] };
/** Required on order.created; updated and cancelled carry only what changed (line 176). */
const CREATED: Required = { refused: ['created'], accepted: ['updated', 'cancelled'] };
/** Required within its object; the objects' shapes are shown for order.created only (line 176). */
const IN_OBJECT: Required = { refused: ['created'], accepted: [] };
/** amounts.total_amount, grand_total: the updated's amounts carry both (lines 176, 226). */
const WITH_AMOUNTS: Required = { refused: ['created', 'updated'], accepted: [] };
const OPTIONAL: Required = { refused: [], accepted: everyEvent };

type Kind =
  | 'text'
  | 'money'
  | 'quantity'
  | 'hex64'
  | 'unixMs'
  | 'phone'
  | 'email'
  | 'url'
  | 'map'
  | 'items'
  | 'deprecated'
  | 'object'
  | 'list';

interface Rule {
  /** The line of spec 002 (../shared/spec/002_b94b38b8a102cb78.txt from the project root) the rule is read from. */
  line: number;
  /** `[]` stands for the array's first entry. */
  path: string;
  kind: Kind;
  req: Required;
  max?: number;
  /** Events whose body carries the field (default: all three). */
  on?: Event[];
}

/** The spec's tables, row by row. */
const rules: Rule[] = [
  { line: 27, path: 'secure_hash', kind: 'hex64', req: ALWAYS },
  { line: 28, path: 'event_timestamp', kind: 'unixMs', req: ALWAYS },
  { line: 29, path: 'created_by', kind: 'text', max: 128, req: CREATED, on: ['created'] },
  { line: 30, path: 'platform_code', kind: 'text', max: 64, req: CREATED, on: ['created'] },
  { line: 31, path: 'miniapp_id', kind: 'text', max: 64, req: CREATED, on: ['created'] },
  { line: 32, path: 'order', kind: 'object', req: ALWAYS },
  { line: 40, path: 'order.order_id', kind: 'text', max: 64, req: ALWAYS },
  { line: 41, path: 'order.order_type', kind: 'text', max: 64, req: CREATED },
  { line: 42, path: 'order.order_name', kind: 'text', max: 256, req: OPTIONAL },
  { line: 43, path: 'order.category_code', kind: 'text', max: 64, req: OPTIONAL },
  { line: 44, path: 'order.category_name', kind: 'text', max: 256, req: OPTIONAL },
  { line: 45, path: 'order.status', kind: 'text', req: CREATED },
  { line: 46, path: 'order.pnl_order_status', kind: 'text', max: 64, req: CREATED },
  { line: 47, path: 'order.pnl_order_status_label', kind: 'text', max: 256, req: OPTIONAL },
  { line: 48, path: 'order.payment_status', kind: 'text', req: CREATED },
  { line: 49, path: 'order.description', kind: 'text', req: OPTIONAL },
  { line: 50, path: 'order.business_unit_id', kind: 'text', req: OPTIONAL },
  { line: 51, path: 'order.branch_id', kind: 'text', req: OPTIONAL },
  { line: 52, path: 'order.seller_merchant_id', kind: 'text', req: OPTIONAL },
  { line: 53, path: 'order.customer', kind: 'object', req: CREATED },
  { line: 54, path: 'order.customer.customer_id', kind: 'text', max: 64, req: IN_OBJECT },
  { line: 55, path: 'order.customer.name', kind: 'text', max: 128, req: IN_OBJECT },
  { line: 56, path: 'order.customer.phone', kind: 'phone', req: OPTIONAL },
  { line: 57, path: 'order.customer.email', kind: 'email', req: OPTIONAL },
  { line: 58, path: 'order.items', kind: 'items', req: OPTIONAL },
  { line: 59, path: 'order.items[].item_id', kind: 'text', max: 64, req: IN_OBJECT },
  { line: 60, path: 'order.items[].name', kind: 'text', max: 256, req: IN_OBJECT },
  { line: 61, path: 'order.items[].quantity', kind: 'quantity', req: IN_OBJECT },
  { line: 62, path: 'order.items[].description', kind: 'text', req: OPTIONAL },
  { line: 63, path: 'order.items[].unit_price', kind: 'money', req: IN_OBJECT },
  { line: 63, path: 'order.items[].total_price', kind: 'money', req: IN_OBJECT },
  { line: 64, path: 'order.items[].item_type', kind: 'text', req: OPTIONAL },
  { line: 65, path: 'order.items[].item_category', kind: 'deprecated', req: OPTIONAL },
  { line: 66, path: 'order.items[].category_code', kind: 'text', max: 64, req: OPTIONAL },
  { line: 67, path: 'order.items[].category_name', kind: 'text', max: 256, req: OPTIONAL },
  { line: 68, path: 'order.items[].currency', kind: 'text', max: 8, req: IN_OBJECT },
  { line: 69, path: 'order.items[].image_url', kind: 'url', req: OPTIONAL },
  { line: 70, path: 'order.items[].attributes', kind: 'map', req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items', kind: 'list', req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].sub_item_id', kind: 'text', max: 64, req: IN_OBJECT },
  { line: 71, path: 'order.items[].sub_items[].name', kind: 'text', max: 256, req: IN_OBJECT },
  { line: 71, path: 'order.items[].sub_items[].quantity', kind: 'quantity', req: IN_OBJECT },
  { line: 71, path: 'order.items[].sub_items[].unit_price', kind: 'money', req: IN_OBJECT },
  { line: 71, path: 'order.items[].sub_items[].total_price', kind: 'money', req: IN_OBJECT },
  { line: 71, path: 'order.items[].sub_items[].currency', kind: 'text', max: 8, req: IN_OBJECT },
  { line: 71, path: 'order.items[].sub_items[].description', kind: 'text', req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].item_type', kind: 'text', req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].item_category', kind: 'deprecated', req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].category_code', kind: 'text', max: 64, req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].category_name', kind: 'text', max: 256, req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].image_url', kind: 'url', req: OPTIONAL },
  { line: 71, path: 'order.items[].sub_items[].attributes', kind: 'map', req: OPTIONAL },
  { line: 72, path: 'order.fees', kind: 'list', req: OPTIONAL },
  { line: 73, path: 'order.fees[].fee_code', kind: 'text', max: 64, req: OPTIONAL },
  { line: 74, path: 'order.fees[].description', kind: 'text', req: OPTIONAL },
  { line: 75, path: 'order.fees[].amount', kind: 'money', req: IN_OBJECT },
  { line: 76, path: 'order.fees[].metadata', kind: 'map', req: OPTIONAL },
  { line: 77, path: 'order.promotion_infos', kind: 'list', req: OPTIONAL },
  { line: 78, path: 'order.promotion_infos[].voucher_code', kind: 'text', max: 64, req: OPTIONAL },
  { line: 79, path: 'order.promotion_infos[].voucher_id', kind: 'text', max: 64, req: OPTIONAL },
  { line: 80, path: 'order.promotion_infos[].campaign_id', kind: 'text', max: 64, req: OPTIONAL },
  { line: 81, path: 'order.promotion_infos[].campaign_name', kind: 'text', max: 255, req: OPTIONAL },
  { line: 82, path: 'order.promotion_infos[].discount_type', kind: 'text', max: 32, req: OPTIONAL },
  { line: 83, path: 'order.promotion_infos[].discount_value', kind: 'money', req: OPTIONAL },
  { line: 83, path: 'order.promotion_infos[].amount_before_discount', kind: 'money', req: OPTIONAL },
  { line: 83, path: 'order.promotion_infos[].discount_amount', kind: 'money', req: OPTIONAL },
  { line: 83, path: 'order.promotion_infos[].amount_after_discount', kind: 'money', req: OPTIONAL },
  { line: 84, path: 'order.promotion_infos[].extra_data', kind: 'map', req: OPTIONAL },
  { line: 85, path: 'order.transactions', kind: 'list', req: OPTIONAL },
  { line: 86, path: 'order.transactions[].transaction_id', kind: 'text', max: 64, req: IN_OBJECT },
  { line: 87, path: 'order.transactions[].provider', kind: 'text', max: 64, req: IN_OBJECT },
  { line: 88, path: 'order.transactions[].method', kind: 'text', max: 64, req: IN_OBJECT },
  { line: 89, path: 'order.transactions[].voucher_code', kind: 'text', max: 64, req: OPTIONAL },
  { line: 90, path: 'order.transactions[].amount', kind: 'money', req: IN_OBJECT },
  { line: 91, path: 'order.transactions[].status', kind: 'text', max: 32, req: IN_OBJECT },
  { line: 92, path: 'order.transactions[].note', kind: 'text', max: 512, req: OPTIONAL },
  { line: 93, path: 'order.transactions[].captured_at', kind: 'unixMs', req: OPTIONAL },
  { line: 94, path: 'order.amounts', kind: 'object', req: CREATED },
  { line: 95, path: 'order.amounts.currency', kind: 'text', max: 8, req: IN_OBJECT },
  { line: 96, path: 'order.amounts.total_amount', kind: 'money', req: WITH_AMOUNTS },
  { line: 97, path: 'order.amounts.paid_amount', kind: 'money', req: OPTIONAL },
  { line: 98, path: 'order.amounts.refunded_amount', kind: 'money', req: OPTIONAL },
  { line: 99, path: 'order.amounts.grand_total', kind: 'money', req: WITH_AMOUNTS },
  { line: 101, path: 'order.image_url', kind: 'url', req: OPTIONAL },
  // Line 101 "required per the version history"; line 267 (v1.1) "made ... order.deeplink required".
  { line: 267, path: 'order.deeplink', kind: 'text', req: CREATED },
  { line: 101, path: 'order.metadata', kind: 'map', req: OPTIONAL },
  { line: 101, path: 'order.attributes', kind: 'map', req: OPTIONAL },
];

const x = (n: number) => 'x'.repeat(n);

/** [what, value, accepted] for a field of each kind. */
const probes: Record<Kind, (rule: Rule) => [string, unknown, boolean][]> = {
  text: ({ max }) =>
    max === undefined
      ? []
      : [
          [`of ${max} (at the limit)`, x(max), true],
          [`of ${max + 1}`, x(max + 1), false],
          // Lengths are characters (code points): an emoji is one, not its two UTF-16 units.
          [`of ${max} emoji (at the limit)`, '😀'.repeat(max), true],
          [`of ${max + 1} emoji`, '😀'.repeat(max + 1), false],
        ],
  money: () => [
    ['0', 0, true],
    ['-1', -1, false],
  ],
  quantity: () => [
    ['1', 1, true],
    ['0', 0, false],
    ['1.5', 1.5, false],
  ],
  hex64: () => [
    ['of 64 hex', 'f'.repeat(64), true],
    ['of 63 hex', 'a'.repeat(63), false],
    ['of 65 hex', 'a'.repeat(65), false],
    ['not hex', 'g'.repeat(64), false],
  ],
  unixMs: () => [['fractional', 1.5, false]],
  phone: () => [
    ['of 10 digits', '0901234567', true],
    ['of 11 digits', '09012345678', true],
    ['of 9 digits', '090123456', false],
    ['of 12 digits', '090123456789', false],
  ],
  email: () => [['not an e-mail', 'an@', false]],
  url: () => [['not a URL', 'nope', false]],
  map: () => [['an array', [], false]],
  items: () => [['empty', [], false]],
  deprecated: () => [['given', 'CARS', true]],
  object: () => [],
  list: () => [],
};

/** A body holding every field of the tables. */
const full = () => {
  const line = { description: 'd', item_type: 'T', item_category: 'C', category_code: 'C', category_name: 'Cat' };
  const extra = { currency: 'VND', image_url: 'https://cdn.example.vn/a.png', attributes: { a: 1 } };
  return {
    secure_hash: 'a'.repeat(64),
    event_timestamp: 1_767_225_600_000,
    created_by: 'u1',
    platform_code: 'HOST',
    miniapp_id: 'app',
    order: {
      order_id: 'o1',
      order_type: 'CAR_PURCHASE',
      order_name: 'Car',
      category_code: 'CARS',
      category_name: 'Cars',
      status: 'CREATED',
      pnl_order_status: 'N',
      pnl_order_status_label: 'New',
      payment_status: 'UNPAID',
      description: 'd',
      business_unit_id: 'BU-1',
      branch_id: 'BR-1',
      seller_merchant_id: 'SM-1',
      customer: { customer_id: 'u1', name: 'An', phone: '0901234567', email: 'an@example.vn' },
      items: [
        {
          item_id: 'i1',
          name: 'Car',
          quantity: 1,
          unit_price: 10,
          total_price: 10,
          ...line,
          ...extra,
          sub_items: [
            { sub_item_id: 's1', name: 'Mat', quantity: 2, unit_price: 0, total_price: 0, ...line, ...extra },
          ],
        },
      ],
      fees: [{ fee_code: 'SHIP', description: 'Shipping', amount: 0, metadata: { a: 1 } }],
      promotion_infos: [
        {
          voucher_code: 'V',
          voucher_id: 'VI',
          campaign_id: 'CI',
          campaign_name: 'Spring',
          discount_type: 'AMOUNT',
          discount_value: 10,
          amount_before_discount: 10,
          discount_amount: 10,
          amount_after_discount: 0,
          extra_data: {},
        },
      ],
      transactions: [
        {
          transaction_id: 't1',
          provider: 'P',
          method: 'CARD',
          voucher_code: 'V',
          amount: 0,
          status: 'COMPLETED',
          note: 'n',
          captured_at: 1,
        },
      ],
      // grand_total 0 (fully discounted) lets total_amount go down to 0 without passing it.
      amounts: { currency: 'VND', total_amount: 10, paid_amount: 0, refunded_amount: 0, grand_total: 0 },
      image_url: 'https://cdn.example.vn/o.png',
      deeplink: 'app://orders/o1',
      metadata: { a: 1 },
      attributes: { b: 2 },
    },
  };
};

/** Sets the field at path (`[]` the first entry) to value, or removes it when value is undefined. */
function put(body: object, path: string, value: unknown): void {
  const keys = path.replaceAll('[]', '.0').split('.');
  const last = keys.pop()!;
  type Node = Record<string, unknown>;
  const parent = keys.reduce((node, key) => node[key] as Node, body as Node);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

interface Case {
  event: Event;
  rule: Rule;
  what: string;
  value: unknown;
  accepted: boolean;
}

const cases: Case[] = rules.flatMap((rule) => [
  ...rule.req.refused.map((event) => ({ event, rule, what: 'missing', value: undefined, accepted: false })),
  ...rule.req.accepted.map((event) => ({ event, rule, what: 'left out', value: undefined, accepted: true })),
  ...(rule.on ?? everyEvent).flatMap((event) =>
    probes[rule.kind](rule).map(([what, value, accepted]) => ({ event, rule, what, value, accepted })),
  ),
]);

describe('webhook field rules from the spec tables (docs/orders-fields.md, "Field rules")', () => {
  for (const event of everyEvent)
    it(`order.${event}: the body with every field → accepted`, () => {
      const parsed = schemas[event].safeParse(full());
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true);
    });

  for (const { event, rule, what, value, accepted } of cases) {
    const field = rule.path.replaceAll('[]', '[0]');
    const outcome = accepted ? 'accepted' : `refused naming ${field}`;
    it(`order.${event}: ${rule.path} ${what} → ${outcome} (spec line ${rule.line})`, () => {
      const body = full();
      put(body, rule.path, value);
      const parsed = schemas[event].safeParse(body);
      if (accepted) expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true);
      else {
        expect(parsed.success).to.equal(false);
        expect(issueField(parsed.error!.issues[0]!)).to.equal(field);
      }
    });
  }
});
