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
    // The IPN outbox of the payment hub (docs/ipn.md): not a read model but delivery state (attempts, schedule,
    // leases), which a rebuild must never reset; so it lives here, and the outbox projector only inserts rows into it
    // (one per notifying event, idempotent on the event id).
    name: '0006_payments_ipn_outbox',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE payments_ipn_notifications (
          notification_id uuid PRIMARY KEY,
          event_type text NOT NULL,
          position text NOT NULL,
          merchant_code text NOT NULL,
          transaction_id text NOT NULL,
          order_id text NOT NULL,
          transaction_type text NOT NULL,
          ipn_status text NOT NULL,
          processed_at bigint NOT NULL,
          payload json NOT NULL,
          status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'REJECTED', 'EXHAUSTED')),
          attempts integer NOT NULL DEFAULT 0,
          round_start integer NOT NULL DEFAULT 0,
          next_attempt_at timestamptz,
          lease_owner text,
          lease_until timestamptz,
          fence bigint NOT NULL DEFAULT 0,
          last_error text,
          last_http_status integer,
          created_at timestamptz NOT NULL DEFAULT now(),
          finished_at timestamptz,
          resent_by text,
          resent_at timestamptz
        );
        CREATE INDEX payments_ipn_notifications_due ON payments_ipn_notifications (next_attempt_at) WHERE status = 'PENDING';
        CREATE INDEX payments_ipn_notifications_transaction ON payments_ipn_notifications (transaction_id, position);
        CREATE INDEX payments_ipn_notifications_merchant ON payments_ipn_notifications (merchant_code, status, created_at);
        COMMENT ON TABLE payments_ipn_notifications IS 'IPN outbox of the payment hub: one notification per notifying transaction event (COMPLETED, FAILED, HOLDING, CANCEL), its delivery state and schedule. Written by the ipn role (docs/ipn.md).';
        COMMENT ON COLUMN payments_ipn_notifications.notification_id IS 'Notification id: the id of the event that caused it (one notification per event and merchant).';
        COMMENT ON COLUMN payments_ipn_notifications.event_type IS 'Type of that event, e.g. TransactionCompleted.';
        COMMENT ON COLUMN payments_ipn_notifications.position IS 'Global position of that event; orders the notifications of one transaction.';
        COMMENT ON COLUMN payments_ipn_notifications.merchant_code IS 'Merchant notified (its postback URL is read from its stream at each send).';
        COMMENT ON COLUMN payments_ipn_notifications.transaction_id IS 'Hub transaction id (payload transactionId).';
        COMMENT ON COLUMN payments_ipn_notifications.order_id IS 'Partner order id (payload orderId).';
        COMMENT ON COLUMN payments_ipn_notifications.transaction_type IS 'Payload transactionType: PAYMENT, CANCEL (REFUND, CHARGEBACK later).';
        COMMENT ON COLUMN payments_ipn_notifications.ipn_status IS 'Payload status: HOLDING, COMPLETED, FAILED, CANCELLED.';
        COMMENT ON COLUMN payments_ipn_notifications.processed_at IS 'Payload processedAt: Unix milliseconds of the outcome.';
        COMMENT ON COLUMN payments_ipn_notifications.payload IS 'The IPN payload without secureHash (signed at each send with the merchant''s current secretKey), as JSON text.';
        COMMENT ON COLUMN payments_ipn_notifications.status IS 'PENDING (to send or retry), DELIVERED (the partner has it), REJECTED (the partner refused it; not retried), EXHAUSTED (retries spent).';
        COMMENT ON COLUMN payments_ipn_notifications.attempts IS 'Attempts made so far, across resends (each attempt number is sent at most once).';
        COMMENT ON COLUMN payments_ipn_notifications.round_start IS 'Attempts made before the last operator resend; the merchant''s maximum retries count from here.';
        COMMENT ON COLUMN payments_ipn_notifications.next_attempt_at IS 'When the next attempt is due (the stored backoff); null once finished.';
        COMMENT ON COLUMN payments_ipn_notifications.lease_owner IS 'Dispatcher process sending the current attempt; null when none.';
        COMMENT ON COLUMN payments_ipn_notifications.lease_until IS 'End of that lease: after it, another dispatcher may take the notification (the attempt counts as interrupted).';
        COMMENT ON COLUMN payments_ipn_notifications.fence IS 'Fencing token, increased by every claim: only the holder of the latest claim may record a result.';
        COMMENT ON COLUMN payments_ipn_notifications.last_error IS 'Error or partner status of the last attempt, if it failed.';
        COMMENT ON COLUMN payments_ipn_notifications.last_http_status IS 'HTTP status of the last attempt; null if none came back.';
        COMMENT ON COLUMN payments_ipn_notifications.created_at IS 'When the outbox projector created it.';
        COMMENT ON COLUMN payments_ipn_notifications.finished_at IS 'When it became DELIVERED, REJECTED or EXHAUSTED; null while PENDING.';
        COMMENT ON COLUMN payments_ipn_notifications.resent_by IS 'Operator who last asked for a resend; null if none.';
        COMMENT ON COLUMN payments_ipn_notifications.resent_at IS 'When that resend was asked.';

        CREATE TABLE payments_ipn_attempts (
          notification_id uuid NOT NULL REFERENCES payments_ipn_notifications (notification_id),
          attempt_no integer NOT NULL,
          merchant_code text NOT NULL,
          transaction_id text NOT NULL,
          dispatcher text NOT NULL,
          started_at timestamptz NOT NULL,
          url text,
          http_status integer,
          latency_ms integer,
          response_head text,
          partner_status text,
          error text,
          verdict text CHECK (verdict IN ('DELIVERED', 'RETRY', 'REJECTED', 'EXHAUSTED', 'INTERRUPTED')),
          finished_at timestamptz,
          PRIMARY KEY (notification_id, attempt_no)
        );
        CREATE INDEX payments_ipn_attempts_merchant ON payments_ipn_attempts (merchant_code, started_at);
        CREATE INDEX payments_ipn_attempts_transaction ON payments_ipn_attempts (transaction_id);
        COMMENT ON TABLE payments_ipn_attempts IS 'Every IPN POST the hub made (or began: a dispatcher killed mid-request leaves verdict null until another marks it INTERRUPTED).';
        COMMENT ON COLUMN payments_ipn_attempts.notification_id IS 'The notification sent.';
        COMMENT ON COLUMN payments_ipn_attempts.attempt_no IS 'Its attempt number (1 = first); unique per notification: no attempt is sent twice.';
        COMMENT ON COLUMN payments_ipn_attempts.merchant_code IS 'Merchant notified.';
        COMMENT ON COLUMN payments_ipn_attempts.transaction_id IS 'Hub transaction id of the notification.';
        COMMENT ON COLUMN payments_ipn_attempts.dispatcher IS 'Dispatcher process that made it (host-pid-random).';
        COMMENT ON COLUMN payments_ipn_attempts.started_at IS 'When it was claimed (the POST starts right after).';
        COMMENT ON COLUMN payments_ipn_attempts.url IS 'Postback URL posted to (the merchant''s registered ipnUrl at that time).';
        COMMENT ON COLUMN payments_ipn_attempts.http_status IS 'HTTP status answered; null on a timeout or network error.';
        COMMENT ON COLUMN payments_ipn_attempts.latency_ms IS 'Milliseconds from the request to the end of the answer (or the error).';
        COMMENT ON COLUMN payments_ipn_attempts.response_head IS 'The first bytes of the answer body (at most 512), as text.';
        COMMENT ON COLUMN payments_ipn_attempts.partner_status IS 'The status field of a JSON answer (SUCCESS, DUPLICATE, FAILED, INVALID_HASH, ORDER_NOT_FOUND); null otherwise.';
        COMMENT ON COLUMN payments_ipn_attempts.error IS 'Timeout, network error or refusal message; null when an answer came.';
        COMMENT ON COLUMN payments_ipn_attempts.verdict IS 'DELIVERED, RETRY (retried later), REJECTED, EXHAUSTED (a retryable failure with no retry left), INTERRUPTED (its dispatcher died); null while in flight.';
        COMMENT ON COLUMN payments_ipn_attempts.finished_at IS 'When its result was recorded.';

        CREATE TABLE payments_ipn_origin (
          notify_from timestamptz NOT NULL
        );
        INSERT INTO payments_ipn_origin (notify_from) VALUES (now());
        COMMENT ON TABLE payments_ipn_origin IS 'One row: events recorded before this time notify nobody (the history before the IPN dispatcher existed).';
        COMMENT ON COLUMN payments_ipn_origin.notify_from IS 'When the IPN outbox was created (this migration ran).';`);
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
