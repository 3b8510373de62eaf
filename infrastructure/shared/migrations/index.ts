import type { Knex } from 'knex';

/**
 * Schema migrations of the stores every context shares (event store, relay, projection bookkeeping, id sequences).
 * A context's own tables that are not read models are its module's (`migrations` in context-module.ts, e.g.
 * infrastructure/payments/migrations.ts); the composition root runs these first, then each context's, in one list.
 * Read-model tables are not here: each projector creates its own, so a rebuild can create fresh ones and swap.
 * Append new migrations at the end; never edit or rename one that has shipped (its name is recorded in the database).
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
  {
    name: '0003_fan_out',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE leases (
          name text PRIMARY KEY,
          owner_id text NOT NULL,
          acquired_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL
        );
        COMMENT ON TABLE leases IS 'Who may do a singleton job (the relay) until when; a holder renews before expires_at, another process takes over after it.';
        COMMENT ON COLUMN leases.name IS 'The job, e.g. relay.';
        COMMENT ON COLUMN leases.owner_id IS 'Process holding the lease (host-pid-random).';
        COMMENT ON COLUMN leases.acquired_at IS 'When the current owner took the lease.';
        COMMENT ON COLUMN leases.expires_at IS 'Database time after which the lease is free unless renewed.';

        CREATE TABLE relay_checkpoints (
          name text PRIMARY KEY,
          position text NOT NULL,
          updated_at timestamptz NOT NULL
        );
        COMMENT ON TABLE relay_checkpoints IS 'Last event published to the in-process bus (no broker), so a restarted relay does not republish. JetStream keeps its own (the stream''s last message).';
        COMMENT ON COLUMN relay_checkpoints.name IS 'Bus name (in-process).';
        COMMENT ON COLUMN relay_checkpoints.position IS 'Global position of the last published event (fixed-width string).';
        COMMENT ON COLUMN relay_checkpoints.updated_at IS 'When it last moved.';

        CREATE TABLE projection_checkpoints (
          projector text PRIMARY KEY,
          version integer NOT NULL,
          generation integer NOT NULL,
          position text,
          last_recorded_at timestamptz,
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        COMMENT ON TABLE projection_checkpoints IS 'Per projector: the last event applied to its read model, written in the same transaction as the rows.';
        COMMENT ON COLUMN projection_checkpoints.projector IS 'Projector name.';
        COMMENT ON COLUMN projection_checkpoints.version IS 'Projector version the current tables were built with; a different one triggers a rebuild.';
        COMMENT ON COLUMN projection_checkpoints.generation IS 'Generation of the physical tables (<table>_g<n>) the views point at.';
        COMMENT ON COLUMN projection_checkpoints.position IS 'Global position of the last applied event; null before the first.';
        COMMENT ON COLUMN projection_checkpoints.last_recorded_at IS 'When the last applied event was recorded in the store (lag = now minus this).';
        COMMENT ON COLUMN projection_checkpoints.updated_at IS 'When the checkpoint last moved.';

        CREATE TABLE dead_letters (
          id bigserial PRIMARY KEY,
          projector text NOT NULL,
          event_id text NOT NULL,
          position text NOT NULL,
          event_type text NOT NULL,
          error text NOT NULL,
          payload jsonb NOT NULL,
          delivery_count integer NOT NULL,
          at timestamptz NOT NULL
        );
        CREATE INDEX dead_letters_projector_at ON dead_letters (projector, at);
        COMMENT ON TABLE dead_letters IS 'Events a projector could not apply after repeated deliveries; skipped so later events still apply. Fix the projector, then rebuild it.';
        COMMENT ON COLUMN dead_letters.id IS 'Row id.';
        COMMENT ON COLUMN dead_letters.projector IS 'Projector that gave up.';
        COMMENT ON COLUMN dead_letters.event_id IS 'Id of the event.';
        COMMENT ON COLUMN dead_letters.position IS 'Global position of the event.';
        COMMENT ON COLUMN dead_letters.event_type IS 'Type of the event.';
        COMMENT ON COLUMN dead_letters.error IS 'Error of the last attempt (stack).';
        COMMENT ON COLUMN dead_letters.payload IS 'The whole event as delivered.';
        COMMENT ON COLUMN dead_letters.delivery_count IS 'Deliveries before giving up.';
        COMMENT ON COLUMN dead_letters.at IS 'When it was dead-lettered.';`);
    },
  },
  {
    // json keeps the text as the appender wrote it (an auditor reads the payload as given, keys in their order), and
    // costs far less than jsonb to write and to read back: nothing is queried inside it in SQL.
    name: '0004_event_payload_as_written',
    async up(knex) {
      await knex.raw(`
        ALTER TABLE events ALTER COLUMN data TYPE json USING data::json, ALTER COLUMN metadata TYPE json USING metadata::json;
        COMMENT ON COLUMN events.data IS 'Event payload as JSON, stored as written; amounts in minor units, times ISO 8601.';`);
    },
  },
  {
    // The store keeps any JSON an event holds (json, not jsonb); jsonb refuses \u0000 and lone surrogates, so a
    // dead letter of such an event could not be written and the poison stalled its projector (docs/projections.md).
    name: '0005_dead_letter_payload_as_delivered',
    async up(knex) {
      await knex.raw(`
        ALTER TABLE dead_letters ALTER COLUMN payload TYPE json USING payload::json;
        COMMENT ON COLUMN dead_letters.payload IS 'The whole event as delivered, as JSON text (json, like events.data: whatever the event holds is kept).';`);
    },
  },
  {
    // An append is then one statement without BEGIN and COMMIT around it (append-statement.ts): a batch whose expected
    // version does not hold must fail as a whole, stream revisions included, so the statement raises.
    name: '0007_append_conflict_raises',
    async up(knex) {
      await knex.raw(`
        CREATE FUNCTION event_append_conflict(first_conflict integer, revisions_before bigint[]) RETURNS integer
        LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'wrong expected version'
            USING ERRCODE = 'ES409', DETAIL = json_build_object('first_conflict', first_conflict, 'revisions_before', revisions_before)::text;
        END $$;
        COMMENT ON FUNCTION event_append_conflict(integer, bigint[]) IS 'Raises SQLSTATE ES409 (detail: the first write whose expected version failed, 1-based, and each write''s revision before it): aborts an append statement as a whole.';`);
    },
  },
  {
    // A NOTIFY makes its transaction take PostgreSQL's one notification-queue lock at commit and hold it until the
    // commit record is flushed, so with this trigger every append on the server committed one at a time (the biggest
    // wait under load, docs/event-store.md, "Subscriptions"). Nothing in the service listened: the relay polls, and a
    // store's subscribers are woken by its own appends.
    name: '0008_append_without_notify',
    async up(knex) {
      await knex.raw(`
        DROP TRIGGER events_appended ON events;
        DROP FUNCTION events_notify_appended();`);
    },
  },
];

/**
 * Runs the migrations of `list` not run yet, in its order (the composition root's list: these, then each context's).
 * Names are the record: two migrations of one name would be one, so they are refused.
 */
export async function migrate(knex: Knex, list: readonly Migration[] = migrations): Promise<void> {
  const names = new Set<string>();
  for (const { name } of list) {
    if (names.has(name)) throw new Error(`two migrations are named ${name}`);
    names.add(name);
  }
  await knex.migrate.latest({
    tableName: 'schema_migrations',
    migrationSource: {
      getMigrations: async () => [...list],
      getMigrationName: (m: Migration) => m.name,
      getMigration: async (m: Migration) => ({ up: m.up, down: async () => undefined }),
    },
  });
}
