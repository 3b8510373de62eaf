/**
 * The voucher pool aggregate (stream voucherPool-<poolId>): stock, pricing and
 * what each buyer holds of it. Its state stays compact however long the
 * stream: counters, one small record per buyer (counts for the latest
 * purchase day and in total) and one per reservation still holding stock.
 */
import type { Decider } from '../shared/decider.js';
import type {
  Currency,
  PoolDisplay,
  PoolPricing,
  PoolTerms,
  VoucherPoolEvent,
  VoucherStockReleased,
} from './events.js';
import { shopError } from './errors.js';
import { PersistentMap } from './persistent-map.js';
import {
  assertValidCategoryId,
  assertValidDefinition,
  assertValidDisplay,
  assertValidMiniAppIds,
  assertValidPricing,
  assertValidTerms,
  assertValidValidity,
  type PoolDefinition,
  type PoolValidity,
} from './pool-definition.js';
import { notOnSale, type PoolSale } from './pool-sale.js';

/** A buyer's vouchers of this pool still counting towards the limits (reserved or sold). */
export interface BuyerUsage {
  /** The latest purchase day seen for this buyer, and the count bought on it. */
  readonly day: string;
  readonly dayCount: number;
  readonly total: number;
}

/** Stock a reservation holds until it is sold or released. */
export interface StockHold {
  readonly merchantId: string;
  readonly userId: string;
  readonly quantity: number;
  readonly day: string;
}

export interface VoucherPool {
  readonly status: 'ACTIVE' | 'DELETED';
  readonly poolId: number;
  readonly campaignId: number;
  readonly categoryId: number;
  readonly miniAppIds: readonly string[];
  readonly display: PoolDisplay;
  readonly validity: PoolValidity;
  readonly pricing: PoolPricing;
  readonly terms: PoolTerms;
  readonly totalQuantity: number;
  readonly remaining: number;
  readonly reserved: number;
  readonly sold: number;
  /** Keyed by buyerKey(merchantId, userId). */
  readonly usage: PersistentMap<BuyerUsage>;
  /** Keyed by reservation key. */
  readonly holds: PersistentMap<StockHold>;
  /** Its campaign's sale terms (pool-sale.ts); undefined for a pool created before the rule: it sells as before. */
  readonly sale?: PoolSale;
}

export type VoucherPoolState = { readonly status: 'NONE' } | VoucherPool;

export type VoucherPoolCommand =
  | ({ type: 'CreateVoucherPool'; poolId: number; now: string; sale?: PoolSale } & PoolDefinition)
  /** Copies its campaign's sale terms, unless the pool holds terms of a later campaign revision already. */
  | { type: 'SyncVoucherPoolSale'; sale: PoolSale; now: string }
  | { type: 'AddVoucherStock'; quantity: number; now: string }
  | { type: 'RepriceVoucherPool'; pricing: PoolPricing; now: string }
  | { type: 'DeleteVoucherPool'; now: string }
  /** Changes the parts given (display and terms field by field); the others stay. */
  | { type: 'UpdateVoucherPool'; changes: VoucherPoolChanges; now: string }
  | {
      type: 'ReserveVoucherStock';
      reservationKey: string;
      merchantId: string;
      userId: string;
      quantity: number;
      unitPrice: number;
      currency: Currency;
      /** Purchase day of `now` in the configured day zone (see purchaseDay). */
      day: string;
      now: string;
    }
  | { type: 'ReleaseVoucherStock'; reservationKey: string; reason: VoucherStockReleased['data']['reason']; now: string }
  | { type: 'SellVoucherStock'; reservationKey: string; now: string };

/**
 * One key per buyer (user ids are scoped to their merchant), the JSON of [merchantId, userId], so no two buyers share
 * one whatever their ids hold. The one definition: the pool's usage, the inventory projector's announcements and the
 * catalog's cache of holdings (infrastructure/shop/catalog-holdings.ts) all key buyers by it.
 */
export function buyerKey(merchantId: string, userId: string): string {
  return JSON.stringify([merchantId, userId]);
}

/** What a buyer holds of the pool on `day` and in total (reserved or sold). */
export function buyerUsage(
  pool: VoucherPool,
  merchantId: string,
  userId: string,
  day: string,
): { daily: number; total: number } {
  const usage = pool.usage.get(buyerKey(merchantId, userId));
  return { daily: usage?.day === day ? usage.dayCount : 0, total: usage?.total ?? 0 };
}

/** What an operator may change of a pool besides stock and pricing (those have their own commands). */
export const poolChangeFields = ['display', 'terms', 'categoryId', 'miniAppIds', 'validity'] as const;

/** Some of poolChangeFields, checked for form by the interface; display and terms may name only some fields. */
export interface VoucherPoolChanges {
  display?: Partial<PoolDisplay>;
  terms?: Partial<PoolTerms>;
  categoryId?: number;
  miniAppIds?: string[];
  validity?: PoolValidity;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// At module level, not a closure per decision: under tsx (esbuild's keepNames) each named closure costs a defineProperty.
const limitExceeded = (
  poolId: number,
  requested: number,
  limit: 'maxPerOrder' | 'maxPerDay' | 'usageLimit',
  allowed: number,
) => shopError('PURCHASE_LIMIT_EXCEEDED', `${limit} of pool ${poolId} exceeded`, { poolId, limit, allowed, requested });

/** Keys whose value is given: an absent field of a partial change keeps the current value. */
const given = <T extends object>(change: T): Partial<T> =>
  Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<T>;

/** One event per part the change really alters (none when it alters nothing, so a retry changes nothing). */
function update(pool: VoucherPool, changes: VoucherPoolChanges, updatedAt: string): VoucherPoolEvent[] {
  const { poolId } = pool;
  const events: VoucherPoolEvent[] = [];
  if (changes.display !== undefined) {
    const display = { ...pool.display, ...given(changes.display) };
    assertValidDisplay(display);
    if (!same(display, pool.display))
      events.push({ type: 'VoucherPoolDisplayUpdated', data: { poolId, display, updatedAt } });
  }
  if (changes.terms !== undefined) {
    const terms = { ...pool.terms, ...given(changes.terms) };
    assertValidTerms(terms);
    if (!same(terms, pool.terms)) events.push({ type: 'VoucherPoolTermsUpdated', data: { poolId, terms, updatedAt } });
  }
  if (changes.categoryId !== undefined) {
    const { categoryId } = changes;
    assertValidCategoryId(categoryId);
    if (categoryId !== pool.categoryId)
      events.push({ type: 'VoucherPoolCategoryChanged', data: { poolId, categoryId, updatedAt } });
  }
  if (changes.miniAppIds !== undefined) {
    const { miniAppIds } = changes;
    assertValidMiniAppIds(miniAppIds);
    if (!same(miniAppIds, pool.miniAppIds))
      events.push({ type: 'VoucherPoolMiniAppsChanged', data: { poolId, miniAppIds, updatedAt } });
  }
  if (changes.validity !== undefined) {
    const { validity } = changes;
    assertValidValidity(validity);
    if (!same(validity, pool.validity))
      events.push({ type: 'VoucherPoolValidityChanged', data: { poolId, validity, updatedAt } });
  }
  return events;
}

function livePool(state: VoucherPoolState): VoucherPool {
  if (state.status !== 'ACTIVE') throw shopError('POOL_NOT_FOUND', 'voucher pool missing or deleted');
  return state;
}

function decide(command: VoucherPoolCommand, state: VoucherPoolState): VoucherPoolEvent[] {
  switch (command.type) {
    case 'CreateVoucherPool': {
      if (state.status !== 'NONE')
        throw shopError('INVALID_POOL', `voucher pool ${command.poolId} already exists`, {
          field: 'poolId',
          reason: 'already exists',
        });
      if (!Number.isSafeInteger(command.poolId) || command.poolId < 1) {
        throw shopError('INVALID_POOL', 'poolId must be a positive integer', {
          field: 'poolId',
          reason: 'must be a positive integer',
        });
      }
      const { type: _type, now: at, sale, ...definition } = command;
      assertValidDefinition(definition);
      return [{ type: 'VoucherPoolCreated', data: { ...definition, ...(sale ? { sale } : {}), createdAt: at } }];
    }
    case 'SyncVoucherPoolSale': {
      // A deleted pool sells nothing anyway; terms of an older campaign revision than the pool's are stale.
      if (state.status !== 'ACTIVE') return [];
      if (state.sale && state.sale.campaignRevision >= command.sale.campaignRevision) return [];
      return [
        { type: 'VoucherPoolSaleChanged', data: { poolId: state.poolId, sale: command.sale, changedAt: command.now } },
      ];
    }
    case 'AddVoucherStock': {
      const pool = livePool(state);
      if (!Number.isSafeInteger(command.quantity) || command.quantity < 1) {
        throw shopError('INVALID_POOL', 'quantity must be an integer >= 1', {
          field: 'quantity',
          reason: 'must be an integer >= 1',
        });
      }
      return [
        {
          type: 'VoucherPoolStockAdded',
          data: { poolId: pool.poolId, quantity: command.quantity, addedAt: command.now },
        },
      ];
    }
    case 'RepriceVoucherPool': {
      const pool = livePool(state);
      assertValidPricing(command.pricing);
      return [
        {
          type: 'VoucherPoolRepriced',
          data: { poolId: pool.poolId, pricing: command.pricing, repricedAt: command.now },
        },
      ];
    }
    case 'DeleteVoucherPool': {
      const pool = livePool(state);
      return [{ type: 'VoucherPoolDeleted', data: { poolId: pool.poolId, deletedAt: command.now } }];
    }
    case 'UpdateVoucherPool':
      return update(livePool(state), command.changes, command.now);
    case 'ReserveVoucherStock':
      return [reserve(command, livePool(state))];
    case 'ReleaseVoucherStock': {
      // Held stock goes back even to a deleted pool; nothing held: nothing to do.
      const hold = state.status === 'NONE' ? undefined : state.holds.get(command.reservationKey);
      if (state.status === 'NONE' || !hold) return [];
      const { merchantId, userId, quantity, day } = hold;
      return [
        {
          type: 'VoucherStockReleased',
          data: {
            poolId: state.poolId,
            reservationKey: command.reservationKey,
            merchantId,
            userId,
            quantity,
            day,
            reason: command.reason,
            releasedAt: command.now,
          },
        },
      ];
    }
    case 'SellVoucherStock': {
      const hold = state.status === 'NONE' ? undefined : state.holds.get(command.reservationKey);
      if (state.status === 'NONE' || !hold) return [];
      return [
        {
          type: 'VoucherStockSold',
          data: {
            poolId: state.poolId,
            reservationKey: command.reservationKey,
            quantity: hold.quantity,
            soldAt: command.now,
          },
        },
      ];
    }
  }
}

function reserve(
  command: Extract<VoucherPoolCommand, { type: 'ReserveVoucherStock' }>,
  pool: VoucherPool,
): VoucherPoolEvent {
  const { poolId, pricing, terms } = pool;
  const { quantity } = command;
  // Decided here, in the pool's serial decision with its stock: a campaign paused a moment ago sells nothing more.
  const closed = pool.sale && notOnSale(pool.sale, command.now);
  if (closed) throw shopError('POOL_NOT_FOUND', `voucher pool ${poolId} is not on sale: ${closed}`, { poolId });
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw shopError('INVALID_REQUEST', 'quantity must be an integer >= 1', {
      field: 'quantity',
      reason: 'must be an integer >= 1',
    });
  }
  if (pool.holds.has(command.reservationKey))
    throw new Error(`reservation ${command.reservationKey} already holds stock of pool ${poolId}`);
  if (command.unitPrice !== pricing.sellingPrice) {
    throw shopError(
      'PRICE_MISMATCH',
      `unitPrice ${command.unitPrice} differs from the selling price ${pricing.sellingPrice}`,
      {
        poolId,
        unitPrice: command.unitPrice,
        sellingPrice: pricing.sellingPrice,
      },
    );
  }
  if (command.currency !== pricing.currency) {
    throw shopError('CURRENCY_MISMATCH', `currency ${command.currency} differs from the pool's ${pricing.currency}`, {
      poolId,
      currency: command.currency,
      poolCurrency: pricing.currency,
    });
  }
  if (pool.remaining < quantity) {
    throw shopError('OUT_OF_STOCK', `only ${pool.remaining} left of pool ${poolId}`, {
      poolId,
      requested: quantity,
      remaining: pool.remaining,
    });
  }
  if (terms.maxPerOrder !== null && quantity > terms.maxPerOrder)
    throw limitExceeded(poolId, quantity, 'maxPerOrder', terms.maxPerOrder);
  const usage = buyerUsage(pool, command.merchantId, command.userId, command.day);
  if (terms.maxPerDay !== null && usage.daily + quantity > terms.maxPerDay)
    throw limitExceeded(poolId, quantity, 'maxPerDay', terms.maxPerDay - usage.daily);
  if (terms.usageLimit !== null && usage.total + quantity > terms.usageLimit)
    throw limitExceeded(poolId, quantity, 'usageLimit', terms.usageLimit - usage.total);
  return {
    type: 'VoucherStockReserved',
    data: {
      poolId,
      reservationKey: command.reservationKey,
      merchantId: command.merchantId,
      userId: command.userId,
      quantity,
      unitPrice: command.unitPrice,
      day: command.day,
      reservedAt: command.now,
    },
  };
}

function countBought(usage: BuyerUsage | undefined, day: string, quantity: number): BuyerUsage {
  if (!usage || day > usage.day) return { day, dayCount: quantity, total: (usage?.total ?? 0) + quantity };
  // An event of an earlier day (clocks of two processes) only counts in the total.
  return {
    day: usage.day,
    dayCount: usage.dayCount + (day === usage.day ? quantity : 0),
    total: usage.total + quantity,
  };
}

function countReturned(usage: BuyerUsage | undefined, day: string, quantity: number): BuyerUsage | undefined {
  if (!usage) return undefined;
  const total = usage.total - quantity;
  if (total <= 0) return undefined;
  return {
    day: usage.day,
    dayCount: usage.day === day ? Math.max(0, usage.dayCount - quantity) : usage.dayCount,
    total,
  };
}

function evolve(state: VoucherPoolState, event: VoucherPoolEvent): VoucherPoolState {
  if (event.type === 'VoucherPoolCreated') {
    const d = event.data;
    return {
      status: 'ACTIVE',
      poolId: d.poolId,
      campaignId: d.campaignId,
      categoryId: d.categoryId,
      miniAppIds: d.miniAppIds,
      display: d.display,
      validity: d.validity,
      pricing: d.pricing,
      terms: d.terms,
      totalQuantity: d.totalQuantity,
      remaining: d.totalQuantity,
      reserved: 0,
      sold: 0,
      usage: PersistentMap.empty(),
      holds: PersistentMap.empty(),
      ...(d.sale ? { sale: d.sale } : {}),
    };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'VoucherPoolSaleChanged':
      return { ...state, sale: event.data.sale };
    case 'VoucherPoolStockAdded':
      return {
        ...state,
        totalQuantity: state.totalQuantity + event.data.quantity,
        remaining: state.remaining + event.data.quantity,
      };
    case 'VoucherPoolRepriced':
      return { ...state, pricing: event.data.pricing };
    case 'VoucherPoolDeleted':
      return { ...state, status: 'DELETED' };
    case 'VoucherPoolDisplayUpdated':
      return { ...state, display: event.data.display };
    case 'VoucherPoolTermsUpdated':
      return { ...state, terms: event.data.terms };
    case 'VoucherPoolCategoryChanged':
      return { ...state, categoryId: event.data.categoryId };
    case 'VoucherPoolMiniAppsChanged':
      return { ...state, miniAppIds: event.data.miniAppIds };
    case 'VoucherPoolValidityChanged':
      return { ...state, validity: event.data.validity };
    case 'VoucherStockReserved': {
      const { merchantId, userId, quantity, day, reservationKey } = event.data;
      const key = buyerKey(merchantId, userId);
      return {
        ...state,
        remaining: state.remaining - quantity,
        reserved: state.reserved + quantity,
        usage: state.usage.set(key, countBought(state.usage.get(key), day, quantity)),
        holds: state.holds.set(reservationKey, { merchantId, userId, quantity, day }),
      };
    }
    case 'VoucherStockReleased': {
      const { merchantId, userId, quantity, day, reservationKey } = event.data;
      const key = buyerKey(merchantId, userId);
      const usage = countReturned(state.usage.get(key), day, quantity);
      return {
        ...state,
        remaining: state.remaining + quantity,
        reserved: state.reserved - quantity,
        usage: usage ? state.usage.set(key, usage) : state.usage.delete(key),
        holds: state.holds.delete(reservationKey),
      };
    }
    case 'VoucherStockSold':
      return {
        ...state,
        reserved: state.reserved - event.data.quantity,
        sold: state.sold + event.data.quantity,
        holds: state.holds.delete(event.data.reservationKey),
      };
  }
}

export const voucherPoolDecider: Decider<VoucherPoolCommand, VoucherPoolState, VoucherPoolEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
