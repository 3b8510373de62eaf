/**
 * The payment hub's own migrations (context-module.ts, `migrations`): the IPN outbox (docs/ipn.md), delivery state
 * rather than a read model. The composition root runs them after the shared ones (infrastructure/shared/migrations).
 * Never edit or rename one that has shipped: its name is recorded in schema_migrations ("0006": it was the shared
 * list's sixth when it shipped).
 */
import type { Migration } from '../shared/migrations/index.js';

export const paymentsMigrations: readonly Migration[] = [
  {
    // The IPN outbox of the payment hub (docs/ipn.md): not a read model but delivery state (attempts, schedule,
    // leases), which a rebuild must never reset; so it is a migration, and the outbox projector only inserts rows into it
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
];
