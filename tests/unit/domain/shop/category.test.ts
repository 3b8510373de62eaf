import { expect } from 'chai';
import { voucherCategoryDecider, type VoucherCategoryEvent } from '../../../../domain/shop/category.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(voucherCategoryDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-02T10:00:00.000Z';
const created: VoucherCategoryEvent = {
  type: 'VoucherCategoryCreated',
  data: { categoryId: 4, name: 'Ẩm thực', createdAt: now },
};

describe('voucher category decider', () => {
  it('given no category, when created with a padded name, then it is created with the name trimmed', () => {
    given([]).when({ type: 'CreateVoucherCategory', categoryId: 4, name: '  Ẩm thực ', now }).then([created]);
  });

  it('given the category exists, when created again, then CATEGORY_EXISTS', () => {
    given([created])
      .when({ type: 'CreateVoucherCategory', categoryId: 4, name: 'Ẩm thực', now })
      .thenRejects('CATEGORY_EXISTS');
  });

  for (const name of ['', '   ', 42, null, 'x'.repeat(101)]) {
    it(`given no category, when created with name ${JSON.stringify(name)?.slice(0, 20)}, then INVALID_INPUT on name`, () => {
      given([])
        .when({ type: 'CreateVoucherCategory', categoryId: 4, name, now })
        .thenRejects('INVALID_INPUT', { field: 'name' });
    });
  }

  it('given a category, when renamed, then it carries the new name', () => {
    given([created])
      .when({ type: 'RenameVoucherCategory', categoryId: 4, name: 'Ăn uống', now: later })
      .then([{ type: 'VoucherCategoryRenamed', data: { categoryId: 4, name: 'Ăn uống', renamedAt: later } }]);
  });

  it('given a category, when renamed to its current name, then nothing happens (a retried rename succeeds)', () => {
    given([created]).when({ type: 'RenameVoucherCategory', categoryId: 4, name: ' Ẩm thực', now: later }).then([]);
  });

  it('given no category, when renamed, then CATEGORY_NOT_FOUND', () => {
    given([])
      .when({ type: 'RenameVoucherCategory', categoryId: 9, name: 'Du lịch', now })
      .thenRejects('CATEGORY_NOT_FOUND');
  });

  it('given a category, when renamed with a blank name, then INVALID_INPUT on name', () => {
    given([created])
      .when({ type: 'RenameVoucherCategory', categoryId: 4, name: ' ', now })
      .thenRejects('INVALID_INPUT', { field: 'name' });
  });

  it('folds creation and renames into the current name and times', () => {
    const renamed: VoucherCategoryEvent = {
      type: 'VoucherCategoryRenamed',
      data: { categoryId: 4, name: 'Ăn uống', renamedAt: later },
    };
    const state = [created, renamed].reduce(voucherCategoryDecider.evolve, voucherCategoryDecider.initialState);
    expect(state).to.deep.equal({ categoryId: 4, name: 'Ăn uống', createdAt: now, updatedAt: later });
  });
});
