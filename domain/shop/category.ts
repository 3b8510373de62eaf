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
import type { Decider, DomainEvent } from '../shared/decider.js';
import { DomainError } from '../shared/errors.js';

const maxNameLength = 100;

// ---- category-<categoryId> ----

export type VoucherCategoryCreated = DomainEvent<
  'VoucherCategoryCreated',
  { categoryId: number; name: string; createdAt: string }
>;
export type VoucherCategoryRenamed = DomainEvent<
  'VoucherCategoryRenamed',
  { categoryId: number; name: string; renamedAt: string }
>;

export type VoucherCategoryEvent = VoucherCategoryCreated | VoucherCategoryRenamed;

// ---- voucherCategoryIndex ----

export type VoucherCategoryIndexed = DomainEvent<'VoucherCategoryIndexed', { categoryId: number; indexedAt: string }>;

export const categoryIndexStream = 'voucherCategoryIndex';

// ---- the category aggregate ----

export interface VoucherCategory {
  categoryId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** null until the category is created. */
export type VoucherCategoryState = VoucherCategory | null;

export type VoucherCategoryCommand =
  | { type: 'CreateVoucherCategory'; categoryId: number; name: unknown; now: string }
  | { type: 'RenameVoucherCategory'; categoryId: number; name: unknown; now: string };

/** A category name, trimmed: 1 to 100 characters. Throws INVALID_INPUT on `name`. */
export function categoryName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name || name.length > maxNameLength)
    throw new DomainError('INVALID_INPUT', `name must be a string of 1 to ${maxNameLength} characters`, {
      field: 'name',
    });
  return name;
}

export const voucherCategoryDecider: Decider<VoucherCategoryCommand, VoucherCategoryState, VoucherCategoryEvent> = {
  initialState: null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateVoucherCategory': {
        if (state)
          throw new DomainError('CATEGORY_EXISTS', `category ${command.categoryId} already exists`, {
            categoryId: command.categoryId,
          });
        return [
          {
            type: 'VoucherCategoryCreated',
            data: { categoryId: command.categoryId, name: categoryName(command.name), createdAt: command.now },
          },
        ];
      }
      case 'RenameVoucherCategory': {
        if (!state)
          throw new DomainError('CATEGORY_NOT_FOUND', `category ${command.categoryId} does not exist`, {
            categoryId: command.categoryId,
          });
        const name = categoryName(command.name);
        // The same name again changes nothing, so a retried rename succeeds.
        if (name === state.name) return [];
        return [
          { type: 'VoucherCategoryRenamed', data: { categoryId: state.categoryId, name, renamedAt: command.now } },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'VoucherCategoryCreated':
        return {
          categoryId: event.data.categoryId,
          name: event.data.name,
          createdAt: event.data.createdAt,
          updatedAt: event.data.createdAt,
        };
      case 'VoucherCategoryRenamed':
        return { ...state!, name: event.data.name, updatedAt: event.data.renamedAt };
    }
  },
};
