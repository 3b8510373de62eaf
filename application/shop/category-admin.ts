/**
 * Operators' voucher categories (stream category-<id>, ids from the `voucherCategory` sequence), through the write
 * engine. A creation also appends the id to the voucherCategoryIndex stream in the same append (aggregates.ts).
 */
import {
  shopDecoders,
  categoryIndexStream,
  type VoucherCategoryCommand,
  type VoucherCategoryState,
  shopError,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { shopAggregates } from './aggregates.js';

export interface CategoryView {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

function view(state: VoucherCategoryState): CategoryView {
  if (state.status === 'NONE') throw new Error('a category command answered without a category');
  return { id: state.categoryId, name: state.name, createdAt: state.createdAt, updatedAt: state.updatedAt };
}

const notFound = (categoryId: number) =>
  shopError('CATEGORY_NOT_FOUND', `category ${categoryId} does not exist`, { categoryId });

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

export class CategoryAdmin {
  private readonly categories;

  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {
    this.categories = shopAggregates(deps).category;
  }

  /** `name`: 1 to 100 characters, trimmed. */
  async create(context: CommandContext, input: { name: string }): Promise<CategoryView> {
    const [categoryId] = await this.deps.ids.next('voucherCategory');
    return this.run(context, categoryId!, (now) => ({
      type: 'CreateVoucherCategory',
      categoryId: categoryId!,
      name: input.name,
      now,
    }));
  }

  rename(context: CommandContext, categoryId: number, name: string): Promise<CategoryView> {
    return this.run(context, categoryId, (now) => ({ type: 'RenameVoucherCategory', categoryId, name, now }));
  }

  async get(categoryId: number): Promise<CategoryView> {
    const state = await this.load(categoryId);
    if (state.status === 'NONE') throw notFound(categoryId);
    return view(state);
  }

  /** Every category, in creation order. */
  async list(): Promise<CategoryView[]> {
    const states = await Promise.all((await indexedCategoryIds(this.deps.store)).map((id) => this.load(id)));
    return states.filter((s) => s.status !== 'NONE').map(view);
  }

  private async run(
    context: CommandContext,
    categoryId: number,
    command: (now: string) => VoucherCategoryCommand,
  ): Promise<CategoryView> {
    const { state } = await this.categories.handle(context, categoryId, command);
    return view(state);
  }

  private load(categoryId: number): Promise<VoucherCategoryState> {
    return this.categories.state(categoryId);
  }
}
