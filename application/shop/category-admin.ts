/**
 * Operators' voucher categories (stream category-<id>, ids from the `voucherCategory` sequence), through the command
 * handler. A creation also appends the id to the voucherCategoryIndex stream in the same append, category first: on a
 * store without multi-stream transactions a partial write leaves a category that is merely not yet listed nor
 * enforced on pools, never an indexed id without a category.
 */
import {
  shopDecoders,
  shopEventDecoder,
  categoryIndexEntry,
  categoryIndexStream,
  voucherCategoryDecider,
  type VoucherCategoryCommand,
  type VoucherCategoryState,
  shopError,
  streams,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { handleCommand, loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';

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
  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {}

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
    const { state } = await handleCommand({ ...this.deps, decoder: shopEventDecoder }, context, {
      decider: voucherCategoryDecider,
      decoder: shopDecoders.category,
      streamName: streams.category(categoryId),
      command,
      sideWrites: (events) =>
        events.flatMap((e) =>
          e.type === 'VoucherCategoryCreated'
            ? [
                {
                  streamName: categoryIndexStream,
                  event: categoryIndexEntry(e),
                  expectedVersion: 'any' as const,
                  placement: 'after' as const,
                },
              ]
            : [],
        ),
    });
    return view(state);
  }

  private async load(categoryId: number): Promise<VoucherCategoryState> {
    return (
      await loadAggregate(this.deps.store, voucherCategoryDecider, shopDecoders.category, streams.category(categoryId))
    ).state;
  }
}
