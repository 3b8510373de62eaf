import { currencies, type Currency } from './events.js';
import { shopError } from './errors.js';

export interface PurchaseLine {
  voucherPoolId: number;
  unitPrice: number;
  quantity: number;
}

export interface PurchaseRequest {
  orderId: string;
  amount: number;
  currency: Currency;
  items: PurchaseLine[];
}

// At module level: a named closure made per call costs a defineProperty each time under tsx (esbuild's keepNames).
const invalid = (field: string, reason: string) =>
  shopError('INVALID_REQUEST', `${field} ${reason}`, { field, reason });

const isNonNegativeInteger = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * Checks a reserve request on its own, before any pool is looked at: its shape
 * (INVALID_REQUEST, details.field names the field) and then that `amount` is
 * Σ unitPrice × quantity (AMOUNT_MISMATCH). A pool may appear on one line
 * only: two lines for the same pool are refused rather than merged, so every
 * response line answers exactly one request line. One reservation holds at
 * most `maxVouchers` vouchers in all (SHOP_MAX_VOUCHERS_PER_RESERVATION).
 */
export function validatePurchaseRequest(request: PurchaseRequest, maxVouchers = 100): void {
  if (typeof request.orderId !== 'string' || request.orderId.length === 0) throw invalid('orderId', 'is required');
  if (!isNonNegativeInteger(request.amount)) throw invalid('amount', 'must be an integer >= 0');
  if (!(currencies as readonly string[]).includes(request.currency))
    throw invalid('currency', `must be one of ${currencies.join(', ')}`);
  if (!Array.isArray(request.items) || request.items.length === 0)
    throw invalid('items', 'must hold at least one item');
  const pools = new Set<number>();
  request.items.forEach((item, i) => {
    if (!Number.isSafeInteger(item.voucherPoolId) || item.voucherPoolId < 1)
      throw invalid(`items[${i}].voucherPoolId`, 'must be a positive integer');
    if (!isNonNegativeInteger(item.unitPrice)) throw invalid(`items[${i}].unitPrice`, 'must be an integer >= 0');
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1)
      throw invalid(`items[${i}].quantity`, 'must be an integer >= 1');
    if (pools.has(item.voucherPoolId))
      throw invalid(`items[${i}].voucherPoolId`, 'appears on another line of the same request');
    pools.add(item.voucherPoolId);
  });
  const vouchers = request.items.reduce((sum, item) => sum + item.quantity, 0);
  if (vouchers > maxVouchers)
    throw invalid('items', `ask for ${vouchers} vouchers; one reservation holds at most ${maxVouchers}`);
  const expected = request.items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  if (request.amount !== expected) {
    throw shopError('AMOUNT_MISMATCH', `amount ${request.amount} differs from the items' total ${expected}`, {
      amount: request.amount,
      expected,
    });
  }
}
