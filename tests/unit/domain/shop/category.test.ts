import type { VoucherCategoryEvent } from '../../../../domain/shop/events.js';
import { expect } from 'chai';
import { voucherCategoryDecider } from '../../../../domain/shop/category.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(voucherCategoryDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-02T10:00:00.000Z';
const created: VoucherCategoryEvent = {
  type: 'VoucherCategoryCreated',
  data: { categoryId: 4, name: 'Ẩm thực', createdAt: now },
};

describe('voucher category decider', () => {
  it('given no category, when created, then it is created with its name', () => {
    given([]).when({ type: 'CreateVoucherCategory', categoryId: 4, name: 'Ẩm thực', now }).then([created]);
  });

  it('given the category exists, when created again, then CATEGORY_EXISTS', () => {
    given([created])
      .when({ type: 'CreateVoucherCategory', categoryId: 4, name: 'Ẩm thực', now })
      .thenRejects('CATEGORY_EXISTS');
  });

  // A name's form (1 to 100 characters, trimmed) is checked by the operator API: tests/unit/api/operator-schemas.test.ts.

  it('given a category, when renamed, then it carries the new name', () => {
    given([created])
      .when({ type: 'RenameVoucherCategory', categoryId: 4, name: 'Ăn uống', now: later })
      .then([{ type: 'VoucherCategoryRenamed', data: { categoryId: 4, name: 'Ăn uống', renamedAt: later } }]);
  });

  it('given a category, when renamed to its current name, then nothing happens (a retried rename succeeds)', () => {
    given([created]).when({ type: 'RenameVoucherCategory', categoryId: 4, name: 'Ẩm thực', now: later }).then([]);
  });

  it('given no category, when renamed, then CATEGORY_NOT_FOUND', () => {
    given([])
      .when({ type: 'RenameVoucherCategory', categoryId: 9, name: 'Du lịch', now })
      .thenRejects('CATEGORY_NOT_FOUND');
  });

  it('given no event, the state is NONE', () => {
    expect(voucherCategoryDecider.initialState).to.deep.equal({ status: 'NONE' });
  });

  it('folds creation and renames into the current name and times', () => {
    const renamed: VoucherCategoryEvent = {
      type: 'VoucherCategoryRenamed',
      data: { categoryId: 4, name: 'Ăn uống', renamedAt: later },
    };
    const state = [created, renamed].reduce(voucherCategoryDecider.evolve, voucherCategoryDecider.initialState);
    expect(state).to.deep.equal({ status: 'ACTIVE', categoryId: 4, name: 'Ăn uống', createdAt: now, updatedAt: later });
  });
});
