/**
 * Operators' voucher pool commands: create, restock, reprice, update (display, terms, category, mini apps, validity),
 * soft delete; answers from the pool aggregate (docs/shop-api.md, "Operator API").
 */
import {
  saleOf,
  type Campaign,
  type PoolDisplay,
  type PoolPricing,
  type PoolTerms,
  shopError,
  assertValidDefinition,
  type PoolDefinition,
  type PoolValidity,
  type VoucherPool,
  type VoucherPoolChanges,
  type VoucherPoolCommand,
  type VoucherPoolState,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import { followUpContext, type CommandContext } from '../shared/command-context.js';
import type { CampaignSaleSync } from './campaign-sale-sync.js';
import { shopAggregates } from './aggregates.js';
import { DuplicateEventIdError, type EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { assertCategoryAssignable } from './category-admin.js';

/**
 * Where pool commands run. PurchaseService.pools implements it: operators'
 * changes go through the same in-memory, serialised pool states as the
 * purchases, so a restock during a flash sale neither waits for nor
 * conflicts with the reservations of this process.
 */
export interface PoolCommands {
  execute(poolId: number, command: VoucherPoolCommand, context: CommandContext): Promise<VoucherPool>;
  /** The pool as stored now. */
  current(poolId: number): Promise<VoucherPoolState>;
}

export interface VoucherPoolView {
  poolId: number;
  campaignId: number;
  categoryId: number;
  miniAppIds: string[];
  status: 'ACTIVE' | 'DELETED';
  display: PoolDisplay;
  validity: PoolValidity;
  pricing: PoolPricing;
  terms: PoolTerms;
  totalQuantity: number;
  remainingQuantity: number;
  reservedQuantity: number;
  soldQuantity: number;
}

function view(pool: VoucherPoolState): VoucherPoolView {
  if (pool.status === 'NONE') throw new Error('a pool command answered without a pool');
  return {
    poolId: pool.poolId,
    campaignId: pool.campaignId,
    categoryId: pool.categoryId,
    miniAppIds: [...pool.miniAppIds],
    status: pool.status,
    display: pool.display,
    validity: pool.validity,
    pricing: pool.pricing,
    terms: pool.terms,
    totalQuantity: pool.totalQuantity,
    remainingQuantity: pool.remaining,
    reservedQuantity: pool.reserved,
    soldQuantity: pool.sold,
  };
}

/**
 * A pool is created through the command handler: a new stream is no hot spot, and so a creation takes an
 * idempotency key like every other operator creation. Every later command runs through PoolCommands (the flash-sale
 * executor), which takes none: the executor writes pool streams in batches of its own. A categoryId must name a
 * created category once any exists (assertCategoryAssignable).
 */
export class VoucherPoolAdmin {
  private readonly aggregates;

  constructor(
    private readonly deps: {
      store: EventStore;
      ids: NumericIdGenerator;
      clock: Clock;
      pools: PoolCommands;
      sales: CampaignSaleSync;
    },
  ) {
    this.aggregates = shopAggregates(deps);
  }

  /** Validates, checks the campaign and category exist, then takes a pool id from the `voucherPool` sequence. */
  async create(context: CommandContext, definition: PoolDefinition): Promise<VoucherPoolView> {
    assertValidDefinition(definition);
    const campaign = await this.aggregates.campaign.load(definition.campaignId);
    if (campaign.state.status === 'NONE') {
      throw shopError('INVALID_POOL', `campaign ${definition.campaignId} does not exist`, {
        field: 'campaignId',
        reason: 'no such campaign',
      });
    }
    await assertCategoryAssignable(this.deps.store, definition.categoryId);
    const [poolId] = await this.deps.ids.next('voucherPool');
    const { state } = await this.aggregates.voucherPool.handle(context, poolId!, (at): VoucherPoolCommand => ({
      type: 'CreateVoucherPool',
      poolId: poolId!,
      now: at,
      ...definition,
      // The campaign's terms as read now; a change made meanwhile reaches the pool through the process manager.
      sale: saleOf(campaign.state as Campaign, campaign.revision),
    }));
    await this.deps.sales.list(
      followUpContext(context, 'list'),
      definition.campaignId,
      state.status === 'NONE' ? poolId! : state.poolId,
    );
    return view(state);
  }

  async get(poolId: number): Promise<VoucherPoolView> {
    const state = await this.deps.pools.current(poolId);
    if (state.status === 'NONE') throw shopError('POOL_NOT_FOUND', `voucher pool ${poolId} does not exist`);
    return view(state);
  }

  addStock(context: CommandContext, poolId: number, quantity: number): Promise<VoucherPoolView> {
    return this.run(context, poolId, (at) => ({ type: 'AddVoucherStock', quantity, now: at }));
  }

  reprice(context: CommandContext, poolId: number, pricing: PoolPricing): Promise<VoucherPoolView> {
    return this.run(context, poolId, (at) => ({ type: 'RepriceVoucherPool', pricing, now: at }));
  }

  /** Changes the parts given (display and terms field by field); the others stay. */
  async update(context: CommandContext, poolId: number, changes: VoucherPoolChanges): Promise<VoucherPoolView> {
    if (changes.categoryId !== undefined) await assertCategoryAssignable(this.deps.store, changes.categoryId);
    return this.run(context, poolId, (at) => ({ type: 'UpdateVoucherPool', changes, now: at }));
  }

  delete(context: CommandContext, poolId: number): Promise<VoucherPoolView> {
    return this.run(context, poolId, (at) => ({ type: 'DeleteVoucherPool', now: at }));
  }

  private async run(
    context: CommandContext,
    poolId: number,
    command: (at: string) => VoucherPoolCommand,
  ): Promise<VoucherPoolView> {
    if (context.idempotency) throw new Error('pool changes run by the purchase executor take no idempotency key');
    try {
      return view(await this.deps.pools.execute(poolId, command(this.deps.clock.now().toISOString()), context));
    } catch (error) {
      // Its event ids are stored already (PostgreSQL): this command was carried out before, by the same request sent
      // again. Answered with the pool as it is now; nothing is appended twice.
      if (error instanceof DuplicateEventIdError) return this.get(poolId);
      throw error;
    }
  }
}
