import { randomUUID } from 'node:crypto';
import { fold } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';
import {
  categoryIndexStream,
  categoryName,
  voucherCategoryDecider,
  type VoucherCategory,
  type VoucherCategoryIndexed,
} from '../../domain/shop/category.js';
import { shopError } from '../../domain/shop/errors.js';
import { streams } from '../../domain/shop/events.js';
import { shopDecoders, shopEventDecoder } from '../../domain/shop/event-decoder.js';
import type { Clock } from '../shared/clock.js';
import { handleCommand } from '../shared/command-handler.js';
import type { EventMetadata, EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';

export interface CategoryView {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

const view = (c: VoucherCategory): CategoryView => ({
  id: c.categoryId,
  name: c.name,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

function assertOperator(operator: unknown): asserts operator is string {
  if (typeof operator !== 'string' || !operator.trim())
    throw new DomainError('INVALID_INPUT', 'operator is required', { field: 'operator' });
}

function notFound(categoryId: number): DomainError {
  return new DomainError('CATEGORY_NOT_FOUND', `category ${categoryId} does not exist`, { categoryId });
}

/** Ids of every category ever created, in creation order, from the index stream. */
async function indexedCategoryIds(store: EventStore): Promise<number[]> {
  const events = await store.readStream(categoryIndexStream);
  return events.map((e) => shopDecoders.categoryIndex.decode(e).data.categoryId);
}

/**
 * Whether a pool may be put in `categoryId`: any id while no category has
 * been created yet (categories are optional), afterwards only a created one.
 * Throws INVALID_POOL on categoryId otherwise.
 */
export async function assertCategoryAssignable(store: EventStore, categoryId: number): Promise<void> {
  const known = await indexedCategoryIds(store);
  if (known.length > 0 && !known.includes(categoryId)) {
    throw shopError('INVALID_POOL', `categoryId ${categoryId} is not a voucher category`, {
      field: 'categoryId',
      reason: 'no such category',
    });
  }
}

/**
 * Operators' voucher categories (stream category-<id>, ids from the
 * `voucherCategory` sequence). A creation also appends the id to the
 * voucherCategoryIndex stream in the same appendMany, category first: on a
 * store without multi-stream transactions a partial write leaves a category
 * that is merely not yet enforced on pools, never an indexed id without a category.
 */
export class CategoryAdmin {
  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {}

  async create(operator: string, input: { name?: unknown }): Promise<CategoryView> {
    assertOperator(operator);
    const name = categoryName(input?.name);
    const [categoryId] = await this.deps.ids.next('voucherCategory');
    const now = this.deps.clock.now().toISOString();
    const events = voucherCategoryDecider.decide(
      { type: 'CreateVoucherCategory', categoryId: categoryId!, name, now },
      null,
    );
    const indexed: VoucherCategoryIndexed = {
      type: 'VoucherCategoryIndexed',
      data: { categoryId: categoryId!, indexedAt: now },
    };
    const metadata: EventMetadata = { occurredAt: now, actor: { operator } };
    await this.deps.store.appendMany([
      {
        streamName: streams.category(categoryId!),
        events: events.map((e) => ({
          id: randomUUID(),
          ...e,
          schemaVersion: shopEventDecoder.currentVersion(e.type),
          metadata,
        })),
        expectedVersion: 'no_stream',
      },
      {
        streamName: categoryIndexStream,
        events: [
          { id: randomUUID(), ...indexed, schemaVersion: shopEventDecoder.currentVersion(indexed.type), metadata },
        ],
        expectedVersion: 'any',
      },
    ]);
    return view(fold(voucherCategoryDecider, events)!);
  }

  async rename(operator: string, categoryId: number, name: unknown): Promise<CategoryView> {
    assertOperator(operator);
    const now = this.deps.clock.now().toISOString();
    const commandId = randomUUID();
    const { state } = await handleCommand(
      this.deps.store,
      voucherCategoryDecider,
      shopDecoders.category,
      streams.category(categoryId),
      { type: 'RenameVoucherCategory', categoryId, name, now },
      { commandId, metadata: { correlationId: commandId, actor: { operator }, occurredAt: now } },
    );
    return view(state!);
  }

  async get(categoryId: number): Promise<CategoryView> {
    const state = await this.load(categoryId);
    if (!state) throw notFound(categoryId);
    return view(state);
  }

  /** Every category, in creation order. */
  async list(): Promise<CategoryView[]> {
    const states = await Promise.all((await indexedCategoryIds(this.deps.store)).map((id) => this.load(id)));
    return states.filter((s): s is VoucherCategory => s !== null).map(view);
  }

  private async load(categoryId: number): Promise<VoucherCategory | null> {
    const events = await this.deps.store.readStream(streams.category(categoryId));
    return fold(
      voucherCategoryDecider,
      events.map((e) => shopDecoders.category.decode(e)),
    );
  }
}
