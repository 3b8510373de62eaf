import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { createKnex } from '../../../infrastructure/shared/database.js';
import { preparedRows } from '../../../infrastructure/shared/prepared-query.js';

describe('preparedRows', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    await db.knex.raw(`CREATE TABLE items_g1 (id bigint PRIMARY KEY, label text NOT NULL, size integer NOT NULL)`);
    await db.knex.raw(`INSERT INTO items_g1 VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', 30)`);
    await db.knex.raw(`CREATE VIEW items AS SELECT * FROM items_g1`);
  });
  after(() => db.drop());

  const sizes = (ids: number[]) =>
    preparedRows<{ id: number; size: unknown }>(
      db.knex,
      'SELECT id, size FROM items WHERE id = ANY(?::bigint[]) ORDER BY id',
      [ids],
    );

  it('binds ? placeholders in order, an array as one parameter, and serves every list length with one statement', async () => {
    expect(await sizes([3, 1])).to.deep.equal([
      { id: 1, size: 10 },
      { id: 3, size: 30 },
    ]);
    expect(await sizes([2])).to.deep.equal([{ id: 2, size: 20 }]);
    const rows = await preparedRows<{ label: string }>(
      db.knex,
      'SELECT label FROM items WHERE size > ? AND size < ? ORDER BY id',
      [15, 35],
    );
    expect(rows.map((r) => r.label)).to.deep.equal(['two', 'three']);
  });

  it('prepares each statement once per connection', async () => {
    const single = createKnex(db.url, 1);
    try {
      for (const ids of [[1], [1, 2], [3, 2, 1]])
        await preparedRows(single, 'SELECT id FROM items WHERE id = ANY(?::bigint[])', [ids]);
      const { rows } = await single.raw<{ rows: { statement: string }[] }>(
        `SELECT statement FROM pg_prepared_statements`,
      );
      expect(rows.map((r) => r.statement)).to.deep.equal(['SELECT id FROM items WHERE id = ANY($1::bigint[])']);
    } finally {
      await single.destroy();
    }
  });

  it('reads the new rows when a rebuild swaps the view to another table', async () => {
    for (let i = 0; i < 8; i++) await sizes([1]); // past the custom plans, onto a cached generic one
    await db.knex.raw(`CREATE TABLE items_g2 (id bigint PRIMARY KEY, label text NOT NULL, size integer NOT NULL)`);
    await db.knex.raw(`INSERT INTO items_g2 VALUES (1, 'one', 11)`);
    await db.knex.raw(`CREATE OR REPLACE VIEW items AS SELECT * FROM items_g2`);
    expect(await sizes([1, 2])).to.deep.equal([{ id: 1, size: 11 }]);
  });

  it('prepares a statement again when the view it reads now gives a column another type', async () => {
    for (let i = 0; i < 8; i++) await sizes([1]);
    await db.knex.raw(`DROP VIEW items`);
    await db.knex.raw(`CREATE VIEW items AS SELECT id, label, (size * 2)::text AS size FROM items_g2`);
    expect(await sizes([1])).to.deep.equal([{ id: 1, size: '22' }]);
  });
});
