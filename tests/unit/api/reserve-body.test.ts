import { expect } from 'chai';
import fc from 'fast-check';
import { plainReserveBody, reserveBody } from '../../../api/shop/schemas.js';

const validItem = fc.record({
  voucherPoolId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  unitPrice: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  quantity: fc.integer({ min: 1, max: 10_000 }),
});
const validBody = fc.record(
  {
    orderId: fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 128 }),
        // Up to 128 characters of up to 256 UTF-16 units: lengths are code points (docs/shop-api.md).
        fc.string({ unit: fc.constantFrom('😀', 'Đ', 'a'), minLength: 1, maxLength: 128 }),
      )
      .filter((s) => s.trim().length > 0),
    amount: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    currency: fc.constantFrom('VND', 'VPOINT'),
    items: fc.array(validItem, { minLength: 1, maxLength: 100 }),
  },
  { requiredKeys: ['orderId', 'amount', 'items'] },
);

// Values on and around every bound of the schema, and values of the wrong kind.
const line = { voucherPoolId: 1, unitPrice: 0, quantity: 1 };
const edge = fc.constantFrom<unknown>(
  undefined,
  null,
  true,
  0,
  -0,
  -1,
  1,
  0.5,
  10_000,
  10_001,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  '1',
  '',
  ' ',
  '  x  ',
  'x'.repeat(128),
  ` ${'x'.repeat(128)} `,
  'x'.repeat(129),
  '😀'.repeat(128),
  '😀'.repeat(129),
  'VND',
  'VPOINT',
  'vnd',
  'USD',
  [],
  {},
  [line],
  Array.from({ length: 100 }, () => line),
  Array.from({ length: 101 }, () => line),
);
const fields = ['orderId', 'amount', 'currency', 'items', 'extra'];
const itemFields = ['voucherPoolId', 'unitPrice', 'quantity', 'extra'];
/** A valid body with one to three fields (of the body or of a line) set to an edge value, or a body of another kind. */
const body = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(validBody, fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat(), edge), { minLength: 1, maxLength: 3 }))
      .map(([valid, changes]) => {
        const b: Record<string, unknown> = structuredClone(valid);
        for (const [inItem, field, at, value] of changes) {
          const items = b.items as Record<string, unknown>[] | undefined;
          if (inItem && Array.isArray(items) && items.length > 0 && typeof items[0] === 'object')
            items[at % items.length]![itemFields[field % itemFields.length]!] = structuredClone(value);
          else b[fields[field % fields.length]!] = structuredClone(value);
        }
        return b;
      }),
  },
  edge,
  fc.anything(),
);

describe('plainReserveBody (reserveBody without zod, for the bodies that surely pass it)', () => {
  it('given any body, valid or not, then what it answers is exactly what zod answers', () => {
    fc.assert(
      fc.property(body, (b) => {
        const fast = plainReserveBody(b);
        if (fast === undefined) return;
        const parsed = reserveBody.safeParse(b);
        expect(parsed.success).to.equal(true);
        expect(fast).to.deep.equal(parsed.success ? parsed.data : undefined);
      }),
      { numRuns: 5000 },
    );
  });

  it('given a body zod accepts as it is, then it answers it too (the fast path is the usual path)', () => {
    fc.assert(
      fc.property(validBody, (b) => {
        const parsed = reserveBody.safeParse(b);
        expect(parsed.success).to.equal(true);
        expect(plainReserveBody(b)).to.deep.equal(parsed.success ? parsed.data : undefined);
      }),
      { numRuns: 1000 },
    );
  });

  it('given an orderId of 128 emoji (256 UTF-16 units), then it answers it as zod does; 129 go to zod', () => {
    const b = (orderId: string) => ({ orderId, amount: 0, items: [{ voucherPoolId: 1, unitPrice: 0, quantity: 1 }] });
    expect(plainReserveBody(b('😀'.repeat(128)))).to.deep.equal(reserveBody.parse(b('😀'.repeat(128))));
    expect(plainReserveBody(b('😀'.repeat(129)))).to.equal(undefined);
    expect(reserveBody.safeParse(b('😀'.repeat(129))).success).to.equal(false);
  });

  it('given a padded orderId, no currency and an extra field, then it trims, defaults to VND and drops the field', () => {
    const b = { orderId: '  A-1 ', amount: 5, items: [{ voucherPoolId: 1, unitPrice: 5, quantity: 1, x: 1 }], y: 2 };
    expect(plainReserveBody(b)).to.deep.equal({
      orderId: 'A-1',
      amount: 5,
      currency: 'VND',
      items: [{ voucherPoolId: 1, unitPrice: 5, quantity: 1 }],
    });
  });
});
