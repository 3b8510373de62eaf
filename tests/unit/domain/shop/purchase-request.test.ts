import { expect } from 'chai';
import { DomainError } from '../../../../domain/shared/errors.js';
import { purchaseDay } from '../../../../domain/shop/purchase-day.js';
import { validatePurchaseRequest, type PurchaseRequest } from '../../../../domain/shop/purchase-request.js';

const valid: PurchaseRequest = {
  orderId: 'o1',
  amount: 2 * 90_000 + 50_000,
  currency: 'VND',
  items: [
    { voucherPoolId: 1, unitPrice: 90_000, quantity: 2 },
    { voucherPoolId: 2, unitPrice: 50_000, quantity: 1 },
  ],
};

function rejection(request: PurchaseRequest): DomainError {
  try {
    validatePurchaseRequest(request);
  } catch (e) {
    expect(e).to.be.instanceOf(DomainError);
    return e as DomainError;
  }
  throw new Error('expected the request to be refused');
}

describe('purchase request', () => {
  it('accepts a well-formed request whose amount is the items total', () => {
    expect(() => validatePurchaseRequest(valid)).not.to.throw();
    expect(() =>
      validatePurchaseRequest({ ...valid, amount: 0, items: [{ voucherPoolId: 3, unitPrice: 0, quantity: 1 }] }),
    ).not.to.throw();
  });

  it('refuses an amount other than Σ unitPrice × quantity', () => {
    const e = rejection({ ...valid, amount: valid.amount + 1 });
    expect(e.code).to.equal('AMOUNT_MISMATCH');
    expect(e.details).to.deep.equal({ amount: valid.amount + 1, expected: valid.amount });
  });

  const malformed: [string, Partial<PurchaseRequest>][] = [
    ['orderId', { orderId: '' }],
    ['amount', { amount: -1 }],
    ['amount', { amount: 1.5 }],
    ['currency', { currency: 'USD' as never }],
    ['items', { items: [] }],
    ['items[0].quantity', { items: [{ voucherPoolId: 1, unitPrice: 1, quantity: 0 }] }],
    ['items[0].unitPrice', { items: [{ voucherPoolId: 1, unitPrice: -5, quantity: 1 }] }],
    ['items[0].voucherPoolId', { items: [{ voucherPoolId: 0, unitPrice: 1, quantity: 1 }] }],
  ];
  for (const [field, overrides] of malformed) {
    it(`refuses a malformed ${field}`, () => {
      const e = rejection({ ...valid, ...overrides });
      expect(e.code).to.equal('INVALID_REQUEST');
      expect(e.details.field).to.equal(field);
    });
  }

  it('refuses two lines for the same pool instead of merging them', () => {
    const items = [valid.items[0]!, { ...valid.items[0]! }];
    const e = rejection({ ...valid, amount: 360_000, items });
    expect(e.code).to.equal('INVALID_REQUEST');
    expect(e.details.field).to.equal('items[1].voucherPoolId');
  });
});

describe('purchase day', () => {
  it('starts the day at midnight of the configured zone', () => {
    expect(purchaseDay('2025-03-01T16:59:59.999Z', 420)).to.equal('2025-03-01');
    expect(purchaseDay('2025-03-01T17:00:00.000Z', 420)).to.equal('2025-03-02');
    expect(purchaseDay('2025-03-01T00:30:00.000Z', -60)).to.equal('2025-02-28');
  });
});

describe('purchase request: vouchers in one reservation', () => {
  const lines = (...quantities: number[]): PurchaseRequest => ({
    orderId: 'ORD-CAP',
    amount: quantities.reduce((sum, q) => sum + q * 1000, 0),
    currency: 'VND',
    items: quantities.map((quantity, i) => ({ voucherPoolId: i + 1, unitPrice: 1000, quantity })),
  });

  it('accepts up to the cap over all lines (default 100)', () => {
    expect(() => validatePurchaseRequest(lines(60, 40))).not.to.throw();
    expect(() => validatePurchaseRequest(lines(3), 3)).not.to.throw();
  });

  it('refuses one voucher more, naming items, whatever the lines', () => {
    for (const [request, cap] of [
      [lines(101), 100],
      [lines(60, 41), 100],
      [lines(1_000_000), 100],
      [lines(2, 2), 3],
    ] as const) {
      let refused: unknown;
      try {
        validatePurchaseRequest(request, cap);
      } catch (e) {
        refused = e;
      }
      expect(refused).to.be.instanceOf(DomainError);
      expect(refused).to.deep.include({ code: 'INVALID_REQUEST' });
      expect((refused as DomainError).details).to.include({ field: 'items' });
      expect((refused as DomainError).message).to.include(`at most ${cap}`);
    }
  });
});
