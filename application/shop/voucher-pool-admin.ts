import { randomUUID } from 'node:crypto';
import { streams, type PoolDisplay, type PoolPricing, type PoolTerms } from '../../domain/shop/events.js';
import { shopError } from '../../domain/shop/errors.js';
import { assertValidDefinition, type PoolDefinition, type PoolValidity } from '../../domain/shop/pool-definition.js';
import type { VoucherPool, VoucherPoolCommand, VoucherPoolState } from '../../domain/shop/voucher-pool.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
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

function view(pool: VoucherPool): VoucherPoolView {
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
 * Operators' voucher pool commands: create, restock, reprice, update (display,
 * terms, category, mini apps, validity), soft delete; answers from the pool
 * aggregate. A categoryId must name a created category once any exists
 * (assertCategoryAssignable).
 */
export class VoucherPoolAdmin {
  constructor(
    private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock; pools: PoolCommands },
  ) {}

  /** Validates, checks the campaign and category exist, then takes a pool id from the `voucherPool` sequence. */
  async create(operator: string, definition: PoolDefinition): Promise<VoucherPoolView> {
    assertValidDefinition(definition);
    const campaign = await this.deps.store.readStream(streams.campaign(definition.campaignId));
    if (campaign.length === 0) {
      throw shopError('INVALID_POOL', `campaign ${definition.campaignId} does not exist`, {
        field: 'campaignId',
        reason: 'no such campaign',
      });
    }
    await assertCategoryAssignable(this.deps.store, definition.categoryId);
    const [poolId] = await this.deps.ids.next('voucherPool');
    return this.run(operator, poolId!, (at) => ({ type: 'CreateVoucherPool', poolId: poolId!, at, ...definition }));
  }

  async get(poolId: number): Promise<VoucherPoolView> {
    const state = await this.deps.pools.current(poolId);
    if (state.status === 'NONE') throw shopError('POOL_NOT_FOUND', `voucher pool ${poolId} does not exist`);
    return view(state);
  }

  addStock(operator: string, poolId: number, quantity: number): Promise<VoucherPoolView> {
    return this.run(operator, poolId, (at) => ({ type: 'AddVoucherStock', quantity, at }));
  }

  reprice(operator: string, poolId: number, pricing: PoolPricing): Promise<VoucherPoolView> {
    return this.run(operator, poolId, (at) => ({ type: 'RepriceVoucherPool', pricing, at }));
  }

  /** `changes`: some of display, terms (both may be partial), categoryId, miniAppIds, validity. */
  async update(operator: string, poolId: number, changes: unknown): Promise<VoucherPoolView> {
    const categoryId =
      changes && typeof changes === 'object' ? (changes as { categoryId?: unknown }).categoryId : undefined;
    if (typeof categoryId === 'number') await assertCategoryAssignable(this.deps.store, categoryId);
    return this.run(operator, poolId, (at) => ({ type: 'UpdateVoucherPool', changes, at }));
  }

  delete(operator: string, poolId: number): Promise<VoucherPoolView> {
    return this.run(operator, poolId, (at) => ({ type: 'DeleteVoucherPool', at }));
  }

  private async run(
    operator: string,
    poolId: number,
    command: (at: string) => VoucherPoolCommand,
  ): Promise<VoucherPoolView> {
    if (typeof operator !== 'string' || !operator.trim())
      throw shopError('INVALID_POOL', 'operator is required', { field: 'operator', reason: 'is required' });
    const at = this.deps.clock.now().toISOString();
    const commandId = randomUUID();
    const pool = await this.deps.pools.execute(poolId, command(at), {
      commandId,
      metadata: { correlationId: commandId, actor: { operator }, occurredAt: at },
    });
    return view(pool);
  }
}
