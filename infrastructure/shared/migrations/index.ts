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
  {
    name: '0002_event_store',
    async up(knex) {
      await knex.raw(`
        CREATE SEQUENCE event_transaction_sequence AS bigint;

        CREATE TABLE events (
          id uuid PRIMARY KEY,
          stream_name text NOT NULL,
          revision bigint NOT NULL CHECK (revision >= 0),
          type text NOT NULL,
          schema_version integer NOT NULL DEFAULT 1 CHECK (schema_version >= 1),
          data jsonb NOT NULL,
          metadata jsonb NOT NULL,
          recorded_at timestamptz NOT NULL DEFAULT now(),
          transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
          transaction_sequence bigint NOT NULL DEFAULT nextval('event_transaction_sequence'),
          CONSTRAINT events_stream_revision_key UNIQUE (stream_name, revision),
          CONSTRAINT events_global_position_key UNIQUE (transaction_id, transaction_sequence)
        );
        ALTER SEQUENCE event_transaction_sequence OWNED BY events.transaction_sequence;

        COMMENT ON TABLE events IS 'The event store: every domain event ever recorded, append-only. The source of truth; every read model is derived from it.';
        COMMENT ON COLUMN events.id IS 'Event id (UUID), unique across the store; deterministic where a retried command could append the same event twice.';
        COMMENT ON COLUMN events.stream_name IS 'Stream (aggregate instance) the event belongs to: {category}-{id}, e.g. voucherPool-42.';
        COMMENT ON COLUMN events.revision IS '0-based position of the event in its stream; (stream_name, revision) is unique.';
        COMMENT ON COLUMN events.type IS 'Event type name, e.g. VoucherPoolCreated.';
        COMMENT ON COLUMN events.schema_version IS 'Version of the data layout of this event type (starts at 1).';
        COMMENT ON COLUMN events.data IS 'Event payload as JSON; amounts in minor units, times ISO 8601.';
        COMMENT ON COLUMN events.metadata IS 'Who and why: correlationId, causationId, requestId, actor, occurredAt (ISO 8601), stored as given.';
        COMMENT ON COLUMN events.recorded_at IS 'When the appending transaction started (database clock). Not ordered like the global log.';
        COMMENT ON COLUMN events.transaction_id IS 'Id of the appending transaction (xid8). With transaction_sequence it orders the global log; readers only read below the oldest still running transaction, so a late commit is never skipped.';
        COMMENT ON COLUMN events.transaction_sequence IS 'Increasing number of the row within the global log, giving the order of the events of one transaction.';

        CREATE TABLE event_streams (
          stream_name text PRIMARY KEY,
          revision bigint NOT NULL CHECK (revision >= -1)
        );
        COMMENT ON TABLE event_streams IS 'Current revision per stream: the row appenders lock to check the expected version.';
        COMMENT ON COLUMN event_streams.stream_name IS 'Stream name, as in events.stream_name.';
        COMMENT ON COLUMN event_streams.revision IS 'Revision of the last event of the stream (-1: no event yet).';

        CREATE FUNCTION events_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'events are append-only';
        END $$;
        CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
          FOR EACH ROW EXECUTE FUNCTION events_forbid_change();

        CREATE FUNCTION events_notify_appended() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('events_appended', '');
          RETURN NULL;
        END $$;
        CREATE TRIGGER events_appended AFTER INSERT ON events
          FOR EACH STATEMENT EXECUTE FUNCTION events_notify_appended();
        COMMENT ON TRIGGER events_appended ON events IS 'Wakes subscribers (LISTEN events_appended) when a transaction that appended events commits.';`);
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
