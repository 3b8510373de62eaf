import type { VoucherCategoryCreated, VoucherCategoryIndexed } from '../../../domain/shop/events.js';
import {
  apiSpecification,
  existingStream,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  matching,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { operatorHeaders } from '../support.js';

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now, lastIds: { voucherCategory: 4 } });
const operator = (method: string, path: string, json?: unknown): ApiRequest => ({
  method,
  path: `/operator/v1${path}`,
  headers: operatorHeaders(),
  json,
});
const byAlice = { actor: { operator: 'alice' } };

const food: VoucherCategoryCreated = {
  type: 'VoucherCategoryCreated',
  data: { categoryId: 4, name: 'Ẩm thực', createdAt: '2026-02-01T00:00:00.000Z' },
};
const indexed: VoucherCategoryIndexed = {
  type: 'VoucherCategoryIndexed',
  data: { categoryId: 4, indexedAt: '2026-02-01T00:00:00.000Z' },
};
const existingFood = [existingStream('category-4', [food]), existingStream('voucherCategoryIndex', [indexed])];

describe('Operator API, fast: voucher categories', () => {
  it('creates a category: 201 with the envelope, the category and its index entry appended by the operator', () =>
    given(...existingFood)
      .when(operator('POST', '/voucher-categories', { name: ' Di chuyển ' }))
      .then(
        expectResponse(201, {
          body: {
            code: 'SUCCESS',
            message: 'Success',
            data: { id: 5, name: 'Di chuyển', createdAt: now, updatedAt: now },
          },
        }),
        expectAppended({
          'category-5': [
            {
              type: 'VoucherCategoryCreated',
              data: { categoryId: 5, name: 'Di chuyển', createdAt: now },
              metadata: byAlice,
            },
          ],
          voucherCategoryIndex: [
            { type: 'VoucherCategoryIndexed', data: { categoryId: 5, indexedAt: now }, metadata: byAlice },
          ],
        }),
      ));

  it('renames a category: 200 with its new name, VoucherCategoryRenamed appended by the operator', () =>
    given(...existingFood)
      .when(operator('PATCH', '/voucher-categories/4', { name: 'Ăn uống' }))
      .then(
        expectResponse(200, {
          body: {
            code: 'SUCCESS',
            message: 'Success',
            data: { id: 4, name: 'Ăn uống', createdAt: food.data.createdAt, updatedAt: now },
          },
        }),
        expectAppended({
          'category-4': [
            {
              type: 'VoucherCategoryRenamed',
              data: { categoryId: 4, name: 'Ăn uống', renamedAt: now },
              metadata: byAlice,
            },
          ],
        }),
      ));

  it('renaming to the current name succeeds and appends nothing', () =>
    given(...existingFood)
      .when(operator('PATCH', '/voucher-categories/4', { name: 'Ẩm thực' }))
      .then(expectResponse(200), expectNoNewEvents()));

  it('answers a missing category with 404 OPS-NOT-FOUND, reading or renaming, and appends nothing', async () => {
    const scene = given(...existingFood);
    const notFound = expectResponse(404, {
      body: { code: 'OPS-NOT-FOUND', message: 'category 9 does not exist', data: null },
    });
    await scene.when(operator('GET', '/voucher-categories/9')).then(notFound, expectNoNewEvents());
    await scene
      .when(operator('PATCH', '/voucher-categories/9', { name: 'Du lịch' }))
      .then(notFound, expectNoNewEvents());
  });

  for (const [what, body] of [
    ['a blank name', { name: '   ' }],
    ['no name', {}],
    ['a name that is not a string', { name: 5 }],
  ] as const) {
    it(`refuses ${what} with 400 OPS-REQ-001 naming the field, and appends nothing`, () =>
      given(...existingFood)
        .when(operator('POST', '/voucher-categories', body))
        .then(
          expectResponse(400, { body: { code: 'OPS-REQ-001', message: /name/, data: { field: 'name' } } }),
          expectNoNewEvents(),
        ));
  }

  it('refuses a caller without the operator token with 401 and appends nothing', () =>
    given()
      .when({ method: 'POST', path: '/operator/v1/voucher-categories', json: { name: 'Du lịch' } })
      .then(
        expectResponse(401, { body: { code: 'OPS-AUTH-001', message: /Bearer/, data: null } }),
        expectNoNewEvents(),
      ));

  it('lists categories in creation order, read from their streams', () => {
    const travel: VoucherCategoryCreated = {
      type: 'VoucherCategoryCreated',
      data: { categoryId: 2, name: 'Di chuyển', createdAt: '2026-02-02T00:00:00.000Z' },
    };
    return given(
      existingStream('category-4', [food]),
      existingStream('category-2', [travel]),
      existingStream('voucherCategoryIndex', [indexed, { type: 'VoucherCategoryIndexed', data: { categoryId: 2 } }]),
    )
      .when(operator('GET', '/voucher-categories'))
      .then(
        expectResponse(200, {
          body: matching({
            data: [
              { id: 4, name: 'Ẩm thực', createdAt: food.data.createdAt, updatedAt: food.data.createdAt },
              { id: 2, name: 'Di chuyển', createdAt: travel.data.createdAt, updatedAt: travel.data.createdAt },
            ],
          }),
        }),
        expectNoNewEvents(),
      );
  });
});
