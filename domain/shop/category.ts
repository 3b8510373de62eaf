/**
 * Voucher categories (ẩm thực, di chuyển, ...): what a pool's `categoryId`
 * names and the listing's `categoryIds` filter on.
 *
 * Streams:
 *   category-<categoryId>    the category: created, renamed (streams.category in events.ts)
 *   voucherCategoryIndex     every category id ever created, one event each, written in the
 *                            same appendMany as the creation; pool commands read this one
 *                            small stream to check a categoryId (see voucher-pool-admin).
 */
import type { VoucherCategoryCreated, VoucherCategoryEvent, VoucherCategoryIndexed } from './events.js';
import type { Decider } from '../shared/decider.js';
import { shopError } from './errors.js';

export const categoryIndexStream = 'voucherCategoryIndex';

/** The index entry written with a category's creation. */
export function categoryIndexEntry(created: VoucherCategoryCreated): VoucherCategoryIndexed {
  return {
    type: 'VoucherCategoryIndexed',
    data: { categoryId: created.data.categoryId, indexedAt: created.data.createdAt },
  };
}

// ---- the category aggregate ----

export interface VoucherCategory {
  status: 'ACTIVE';
  categoryId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export type VoucherCategoryState = { readonly status: 'NONE' } | VoucherCategory;

/** `name`: 1 to 100 characters, trimmed (checked by the interface). */
export type VoucherCategoryCommand =
  | { type: 'CreateVoucherCategory'; categoryId: number; name: string; now: string }
  | { type: 'RenameVoucherCategory'; categoryId: number; name: string; now: string };

function decide(command: VoucherCategoryCommand, state: VoucherCategoryState): VoucherCategoryEvent[] {
  switch (command.type) {
    case 'CreateVoucherCategory':
      if (state.status !== 'NONE')
        throw shopError('CATEGORY_EXISTS', `category ${command.categoryId} already exists`, {
          categoryId: command.categoryId,
        });
      return [
        {
          type: 'VoucherCategoryCreated',
          data: { categoryId: command.categoryId, name: command.name, createdAt: command.now },
        },
      ];
    case 'RenameVoucherCategory':
      if (state.status === 'NONE')
        throw shopError('CATEGORY_NOT_FOUND', `category ${command.categoryId} does not exist`, {
          categoryId: command.categoryId,
        });
      // The same name again changes nothing, so a retried rename succeeds.
      if (command.name === state.name) return [];
      return [
        {
          type: 'VoucherCategoryRenamed',
          data: { categoryId: state.categoryId, name: command.name, renamedAt: command.now },
        },
      ];
  }
}

function evolve(state: VoucherCategoryState, event: VoucherCategoryEvent): VoucherCategoryState {
  switch (event.type) {
    case 'VoucherCategoryCreated': {
      const { categoryId, name, createdAt } = event.data;
      return { status: 'ACTIVE', categoryId, name, createdAt, updatedAt: createdAt };
    }
    case 'VoucherCategoryRenamed':
      return state.status === 'NONE' ? state : { ...state, name: event.data.name, updatedAt: event.data.renamedAt };
  }
}

export const voucherCategoryDecider: Decider<VoucherCategoryCommand, VoucherCategoryState, VoucherCategoryEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
