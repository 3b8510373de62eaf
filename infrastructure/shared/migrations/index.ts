import type { Knex } from 'knex';

/**
 * Schema migrations of the stores the service owns (event store, relay,
 * projection bookkeeping, id sequences). Read-model tables are not here: each
 * projector creates its own, so a rebuild can create fresh ones and swap.
 * Append new migrations at the end; never edit one that has shipped.
 */
export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
}

export const migrations: Migration[] = [
  {
    name: '0001_numeric_id_sequences',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE IF NOT EXISTS id_sequences (
          name text PRIMARY KEY,
          last_value bigint NOT NULL
        );
        COMMENT ON TABLE id_sequences IS 'Last numeric id handed out per named sequence (pool ids, issued voucher ids...).';`);
    },
  },
];

export async function migrate(knex: Knex, list: Migration[] = migrations): Promise<void> {
  await knex.migrate.latest({
    tableName: 'schema_migrations',
    migrationSource: {
      getMigrations: async () => list,
      getMigrationName: (m: Migration) => m.name,
      getMigration: async (m: Migration) => ({ up: m.up, down: async () => undefined }),
    },
  });
}
