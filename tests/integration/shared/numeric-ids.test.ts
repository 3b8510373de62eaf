import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../../../infrastructure/shared/numeric-ids.js';

describe('PostgresNumericIds', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
  });
  after(() => db.drop());

  it('hands out unique increasing ids under concurrent callers', async () => {
    const ids = new PostgresNumericIds(db.knex);
    const blocks = await Promise.all(Array.from({ length: 20 }, (_, i) => ids.next('pool', 1 + (i % 3))));
    const all = blocks.flat();
    expect(new Set(all).size).to.equal(all.length);
    for (const b of blocks) for (let i = 1; i < b.length; i++) expect(b[i]).to.equal(b[i - 1]! + 1);
    expect(Math.min(...all)).to.equal(1);
  });

  it('keeps sequences apart', async () => {
    const ids = new PostgresNumericIds(db.knex);
    expect(await ids.next('other')).to.deep.equal([1]);
  });
});
