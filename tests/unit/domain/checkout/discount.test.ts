/** The discount engine as a table of cases (docs/checkout-discounts.md). */
import { expect } from 'chai';
import {
  discountFor,
  minimumShortfall,
  originalTotal,
  subtotalMismatch,
  type CheckoutItem,
  type CheckoutOrder,
  type DiscountOutcome,
  type DiscountRule,
} from '../../../../domain/checkout/discount.js';

const item = (unitPrice: number, quantity = 1, categories: string[] = []): CheckoutItem => ({
  itemId: `i${unitPrice}x${quantity}`,
  unitPrice,
  quantity,
  categories,
});
const order = (merchantId: string, ...items: CheckoutItem[]): CheckoutOrder => ({
  merchantId,
  subtotal: items.reduce((s, i) => s + i.unitPrice * i.quantity, 0),
  items,
});

const platform = { type: 'PLATFORM' } as const;
const merchant = (merchantId: string) => ({ type: 'MERCHANT', merchantId }) as const;
const percent = (percentage: number, maxDiscount: number) => ({ type: 'PERCENTAGE', percentage, maxDiscount }) as const;
const fixed = (amount: number) => ({ type: 'FIXED', amount }) as const;
const rule = (r: Partial<DiscountRule>): DiscountRule => ({
  scope: platform,
  categories: null,
  minOrderValue: 0,
  discount: fixed(10_000),
  ...r,
});
const takes = (amount: number, eligibleAmount: number): DiscountOutcome => ({ applies: true, amount, eligibleAmount });
const refused = (reason: string): DiscountOutcome => ({ applies: false, reason }) as DiscountOutcome;

const cases: Array<[string, DiscountRule, CheckoutOrder[], DiscountOutcome]> = [
  [
    '10 % of 200,000 under a 50,000 cap',
    rule({ discount: percent(10, 50_000) }),
    [order('A', item(200_000))],
    takes(20_000, 200_000),
  ],
  [
    '20 % of 1,000,000 capped at 50,000',
    rule({ discount: percent(20, 50_000) }),
    [order('A', item(1_000_000))],
    takes(50_000, 1_000_000),
  ],
  [
    'a percentage rounded down (VND)',
    rule({ discount: percent(15, 100_000) }),
    [order('A', item(33_333))],
    takes(4_999, 33_333),
  ],
  ['a fixed amount', rule({ discount: fixed(30_000) }), [order('A', item(100_000))], takes(30_000, 100_000)],
  [
    'a fixed amount above the subtotal takes the subtotal only',
    rule({ discount: fixed(80_000) }),
    [order('A', item(50_000))],
    takes(50_000, 50_000),
  ],
  [
    'min order equal to the subtotal applies',
    rule({ minOrderValue: 100_000 }),
    [order('A', item(100_000))],
    takes(10_000, 100_000),
  ],
  [
    'min order one above the subtotal does not',
    rule({ minOrderValue: 100_001 }),
    [order('A', item(100_000))],
    refused('MIN_ORDER_NOT_MET'),
  ],
  [
    'PLATFORM: min order against the sum of all orders',
    rule({ minOrderValue: 150_000 }),
    [order('A', item(100_000)), order('B', item(60_000))],
    takes(10_000, 160_000),
  ],
  [
    'MERCHANT scope: that merchant’s order only',
    rule({ scope: merchant('B'), discount: percent(10, 1_000_000) }),
    [order('A', item(500_000)), order('B', item(100_000))],
    takes(10_000, 100_000),
  ],
  [
    'MERCHANT scope: min order against that merchant’s subtotal',
    rule({ scope: merchant('B'), minOrderValue: 200_000 }),
    [order('A', item(500_000)), order('B', item(100_000))],
    refused('MIN_ORDER_NOT_MET'),
  ],
  [
    'MERCHANT scope: no order of that merchant',
    rule({ scope: merchant('C') }),
    [order('A', item(500_000))],
    refused('SCOPE_MISMATCH'),
  ],
  [
    'categories: only the lines of those categories',
    rule({ categories: ['drinks'], discount: percent(50, 1_000_000) }),
    [order('A', item(40_000, 2, ['drinks']), item(100_000, 1, ['food']))],
    takes(40_000, 80_000),
  ],
  [
    'categories: no item of them',
    rule({ categories: ['toys'] }),
    [order('A', item(40_000, 2, ['drinks']))],
    refused('NO_ITEM_IN_CATEGORY'),
  ],
  [
    'negative unit prices lower the subtotal',
    rule({ discount: percent(10, 1_000_000) }),
    [order('A', item(100_000), item(-20_000))],
    takes(8_000, 80_000),
  ],
  [
    'negative lines that leave nothing to discount',
    rule({ discount: fixed(5_000) }),
    [order('A', item(10_000), item(-10_000))],
    refused('NOTHING_TO_DISCOUNT'),
  ],
  [
    'never more than the whole checkout (final amount never negative)',
    rule({ scope: merchant('A'), discount: fixed(90_000) }),
    [order('A', item(100_000)), order('B', item(-50_000))],
    takes(50_000, 100_000),
  ],
];

describe('discount engine', () => {
  for (const [name, r, orders, expected] of cases) {
    it(name, () => {
      const outcome = discountFor(r, orders);
      expect(outcome).to.deep.equal(expected);
      if (outcome.applies) expect(originalTotal(orders) - outcome.amount).to.be.at.least(0);
    });
  }

  it("says what a minimum lacks, over the orders the promotion applies to (8006's figures)", () => {
    const orders = [order('A', item(60_000)), order('B', item(30_000))];
    expect(minimumShortfall(rule({ minOrderValue: 100_000 }), orders)).to.deep.equal({
      minOrderValue: 100_000,
      subtotal: 90_000,
      remainingAmount: 10_000,
    });
    expect(minimumShortfall(rule({ scope: merchant('A'), minOrderValue: 100_000 }), orders)).to.deep.equal({
      minOrderValue: 100_000,
      subtotal: 60_000,
      remainingAmount: 40_000,
    });
    expect(minimumShortfall(rule({ minOrderValue: 90_000 }), orders).remainingAmount).to.equal(0);
  });

  it('finds an order whose subtotal is not the sum of its lines', () => {
    expect(subtotalMismatch([order('A', item(10_000, 2))])).to.equal(-1);
    expect(subtotalMismatch([order('A', item(10_000)), { ...order('B', item(5_000)), subtotal: 5_001 }])).to.equal(1);
  });
});
