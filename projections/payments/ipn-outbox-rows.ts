/**
 * What both IPN outbox projectors (ipn-outbox.ts for transactions, session-ipn-outbox.ts for payment sessions) write
 * into the one outbox (docs/ipn.md, "How it works"): a notification row per notifying event, due at once, idempotent
 * on the event id, and none for events recorded before the outbox existed.
 */
import type { Knex } from 'knex';
import type { IpnContent } from '../../domain/payments/index.js';
import type { ProjectedEvent } from '../shared/projector.js';

/** Created by migration 0006 (infrastructure/shared/migrations), with the attempts table and the origin. */
export const paymentsIpnNotificationsTable = 'payments_ipn_notifications';
export const paymentsIpnAttemptsTable = 'payments_ipn_attempts';
const originTable = 'payments_ipn_origin';

/** Unix ms before which recorded events notify nobody (the outbox's creation). */
export async function notifyFrom(trx: Knex.Transaction): Promise<number> {
  const row = (await trx(originTable).first('notify_from')) as { notify_from: Date } | undefined;
  return row ? row.notify_from.getTime() : 0;
}

/** The outbox row of the notification `event` makes, with its payload built once, here. */
export function notificationRow(
  event: ProjectedEvent,
  merchantCode: string,
  transactionId: string,
  content: IpnContent,
): Record<string, unknown> {
  return {
    notification_id: event.id,
    event_type: event.type,
    position: event.position,
    merchant_code: merchantCode,
    transaction_id: transactionId,
    order_id: content.orderId,
    transaction_type: content.transactionType,
    ipn_status: content.status,
    processed_at: content.processedAt,
    payload: JSON.stringify(content),
  };
}

/** Inserts notification rows (500 a statement), each due at once; one already there (a redelivery) stays as it is. */
export async function insertNotifications(
  trx: Knex.Transaction,
  notifications: readonly Record<string, unknown>[],
): Promise<void> {
  // Due at once; the projector's clock is the database's, so the row is due by the dispatcher's next poll.
  for (let i = 0; i < notifications.length; i += 500)
    await trx(paymentsIpnNotificationsTable)
      .insert(notifications.slice(i, i + 500).map((n) => ({ ...n, next_attempt_at: trx.fn.now() })))
      .onConflict('notification_id')
      .ignore();
}
