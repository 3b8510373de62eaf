/**
 * The IPN outbox in PostgreSQL (application/payments/ipn-ports.ts IpnOutbox; docs/ipn.md, "How it works"): the
 * notifications the outbox projector wrote and their attempts (migration 0006). A claim is one UPDATE that leases rows
 * whose lease is free, re-checked under the row lock, so two dispatchers never take the same attempt; its fence token
 * must still match when the result is recorded.
 */
import type { Knex } from 'knex';
import type {
  AttemptResult,
  AttemptView,
  ClaimedNotification,
  ClaimOptions,
  IpnDeliveryStatus,
  IpnOutbox,
  NotificationFilter,
  NotificationView,
} from '../../application/payments/index.js';
import {
  paymentsIpnAttemptsTable as attemptsTable,
  paymentsIpnNotificationsTable as table,
} from '../../projections/payments/index.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

interface NotificationRow {
  notification_id: string;
  merchant_code: string;
  transaction_id: string;
  order_id: string;
  transaction_type: string;
  ipn_status: string;
  processed_at: string;
  payload: unknown;
  status: IpnDeliveryStatus;
  attempts: number;
  round_start: number;
  next_attempt_at: Date | null;
  fence: string;
  last_http_status: number | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
  resent_by: string | null;
  resent_at: Date | null;
}

const viewOf = (r: NotificationRow): NotificationView => ({
  notificationId: r.notification_id,
  merchantCode: r.merchant_code,
  transactionId: r.transaction_id,
  orderId: r.order_id,
  transactionType: r.transaction_type,
  ipnStatus: r.ipn_status,
  processedAt: Number(r.processed_at),
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: iso(r.next_attempt_at),
  lastHttpStatus: r.last_http_status,
  lastError: r.last_error,
  createdAt: r.created_at.toISOString(),
  finishedAt: iso(r.finished_at),
  resentBy: r.resent_by,
  resentAt: iso(r.resent_at),
});

export class PostgresIpnOutbox implements IpnOutbox {
  constructor(private readonly knex: Knex) {}

  async claim(owner: string, now: Date, options: ClaimOptions): Promise<ClaimedNotification[]> {
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + options.leaseMs).toISOString();
    // One statement (one round trip): candidates are due, their lease free, the earliest open notification of their
    // transaction (so those due together go in processedAt order), ranked per merchant and limited by what the
    // merchant has in flight already; the UPDATE re-checks the lease under the row lock, so a row two dispatchers
    // both picked goes to one. An attempt a dead dispatcher began and never finished is marked INTERRUPTED, and the
    // new attempt's row is written with the claim.
    const { rows } = (await this.knex.raw(
      `WITH busy AS (
         SELECT merchant_code, count(*)::int AS n FROM ${table}
         WHERE status = 'PENDING' AND lease_until > :at GROUP BY merchant_code
       ), due AS (
         SELECT n.notification_id, n.merchant_code, n.next_attempt_at,
                row_number() OVER (PARTITION BY n.merchant_code ORDER BY n.next_attempt_at, n.position) AS rank
         FROM ${table} n
         WHERE n.status = 'PENDING' AND n.next_attempt_at <= :at AND (n.lease_until IS NULL OR n.lease_until <= :at)
           AND NOT EXISTS (
             SELECT 1 FROM ${table} e
             WHERE e.transaction_id = n.transaction_id AND e.status = 'PENDING' AND e.position < n.position
               AND (e.next_attempt_at <= :at OR e.lease_until > :at))
       ), picked AS (
         SELECT d.notification_id FROM due d LEFT JOIN busy b USING (merchant_code)
         WHERE d.rank <= :perMerchant - coalesce(b.n, 0)
         ORDER BY d.rank, d.next_attempt_at LIMIT :limit
       ), claimed AS (
         UPDATE ${table} t
         SET lease_owner = :owner, lease_until = :leaseUntil, fence = t.fence + 1, attempts = t.attempts + 1
         FROM picked
         WHERE t.notification_id = picked.notification_id AND t.status = 'PENDING'
           AND (t.lease_until IS NULL OR t.lease_until <= :at)
         RETURNING t.notification_id, t.merchant_code, t.transaction_id, t.payload, t.attempts, t.round_start, t.fence
       ), interrupted AS (
         UPDATE ${attemptsTable} a
         SET verdict = 'INTERRUPTED', error = 'its dispatcher stopped before the answer', finished_at = :at
         FROM claimed c
         WHERE a.notification_id = c.notification_id AND a.attempt_no = c.attempts - 1 AND a.verdict IS NULL
       ), started AS (
         INSERT INTO ${attemptsTable} (notification_id, attempt_no, merchant_code, transaction_id, dispatcher, started_at)
         SELECT notification_id, attempts, merchant_code, transaction_id, :owner, :at FROM claimed
       )
       SELECT * FROM claimed`,
      { at, leaseUntil, owner, perMerchant: options.perMerchant, limit: options.limit },
    )) as { rows: NotificationRow[] };
    return rows.map((r) => ({
      notificationId: r.notification_id,
      merchantCode: r.merchant_code,
      transactionId: r.transaction_id,
      content: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as ClaimedNotification['content'],
      attemptNo: r.attempts,
      roundStart: r.round_start,
      fence: Number(r.fence),
    }));
  }

  async record(result: AttemptResult, now: Date): Promise<boolean> {
    const at = now.toISOString();
    const finished = result.status !== 'PENDING';
    const lastError =
      result.verdict === 'DELIVERED' ? null : (result.error ?? result.partnerStatus ?? `HTTP ${result.httpStatus}`);
    // One statement: the notification moves only while the claim's fence holds, and the attempt is recorded with it.
    const { rows } = (await this.knex.raw(
      `WITH moved AS (
         UPDATE ${table}
         SET status = :status, next_attempt_at = :nextAttemptAt, lease_owner = NULL, lease_until = NULL,
             last_http_status = :httpStatus, last_error = :lastError, finished_at = :finishedAt
         WHERE notification_id = :id AND fence = :fence AND attempts = :attemptNo
         RETURNING notification_id
       ), attempt AS (
         UPDATE ${attemptsTable} a
         SET url = :url, http_status = :httpStatus, latency_ms = :latencyMs, response_head = :responseHead,
             partner_status = :partnerStatus, error = :error, verdict = :verdict, finished_at = :at
         FROM moved WHERE a.notification_id = moved.notification_id AND a.attempt_no = :attemptNo
       )
       SELECT count(*)::int AS n FROM moved`,
      {
        status: result.status,
        nextAttemptAt: result.nextAttemptAt,
        httpStatus: result.httpStatus,
        lastError,
        finishedAt: finished ? at : null,
        id: result.notificationId,
        fence: result.fence,
        attemptNo: result.attemptNo,
        url: result.url,
        latencyMs: result.latencyMs,
        responseHead: result.responseHead,
        partnerStatus: result.partnerStatus,
        error: result.error,
        verdict: result.verdict,
        at,
      },
    )) as { rows: { n: number }[] };
    return rows[0]!.n === 1;
  }

  async leaseHolders(now: Date): Promise<string[]> {
    const rows = (await this.knex(table)
      .distinct('lease_owner')
      .where({ status: 'PENDING' })
      .where('lease_until', '>', now.toISOString())) as { lease_owner: string }[];
    return rows.map((r) => r.lease_owner);
  }

  async expireLeases(owners: readonly string[], now: Date): Promise<number> {
    if (owners.length === 0) return 0;
    return this.knex(table)
      .where({ status: 'PENDING' })
      .whereIn('lease_owner', [...owners])
      .where('lease_until', '>', now.toISOString())
      .update({ lease_until: now.toISOString() });
  }

  async list(filter: NotificationFilter): Promise<NotificationView[]> {
    const q = this.knex<NotificationRow>(table)
      .select()
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .limit(filter.limit);
    if (filter.merchantCode) q.where('merchant_code', filter.merchantCode);
    if (filter.transactionId) q.where('transaction_id', filter.transactionId);
    if (filter.status) q.where('status', filter.status);
    return (await q).map(viewOf);
  }

  async attempts(filter: Omit<NotificationFilter, 'status'> & { notificationId?: string }): Promise<AttemptView[]> {
    const q = this.knex(attemptsTable)
      .select()
      .orderBy('started_at', 'desc')
      .orderBy('attempt_no', 'desc')
      .limit(filter.limit);
    if (filter.merchantCode) q.where('merchant_code', filter.merchantCode);
    if (filter.transactionId) q.where('transaction_id', filter.transactionId);
    if (filter.notificationId) q.where('notification_id', filter.notificationId);
    const rows = (await q) as Record<string, unknown>[];
    return rows.map((r) => ({
      notificationId: r.notification_id as string,
      attemptNo: r.attempt_no as number,
      merchantCode: r.merchant_code as string,
      transactionId: r.transaction_id as string,
      dispatcher: r.dispatcher as string,
      startedAt: (r.started_at as Date).toISOString(),
      url: r.url as string | null,
      httpStatus: r.http_status as number | null,
      latencyMs: r.latency_ms as number | null,
      responseHead: r.response_head as string | null,
      partnerStatus: r.partner_status as string | null,
      error: r.error as string | null,
      verdict: r.verdict as string | null,
      finishedAt: iso(r.finished_at as Date | null),
    }));
  }

  async resend(merchantCode: string, notificationId: string, by: string, now: Date): Promise<NotificationView | null> {
    if (!/^[0-9a-f-]{36}$/i.test(notificationId)) return null;
    const rows = (await this.knex(table)
      .where({ notification_id: notificationId, merchant_code: merchantCode })
      // A finished one starts a new round of retries; a pending one is made due now (its lease, if any, stays).
      .update(this.resent(`CASE WHEN status = 'PENDING' THEN round_start ELSE attempts END`, by, now))
      .returning('*')) as NotificationRow[];
    return rows[0] ? viewOf(rows[0]) : null;
  }

  async resendExhausted(merchantCode: string, by: string, now: Date): Promise<number> {
    return this.knex(table)
      .where({ merchant_code: merchantCode, status: 'EXHAUSTED' })
      .update(this.resent('attempts', by, now));
  }

  /** The change a resend makes: due now, PENDING, retries counted from `roundStart` (SQL), attributed to `by`. */
  private resent(roundStart: string, by: string, now: Date) {
    const at = now.toISOString();
    return {
      status: 'PENDING',
      round_start: this.knex.raw(roundStart),
      next_attempt_at: at,
      finished_at: null,
      resent_by: by,
      resent_at: at,
    };
  }

  async countByStatus(): Promise<Record<IpnDeliveryStatus, number>> {
    const rows = (await this.knex(table).select('status').count({ n: '*' }).groupBy('status')) as {
      status: IpnDeliveryStatus;
      n: string;
    }[];
    const counts: Record<IpnDeliveryStatus, number> = { PENDING: 0, DELIVERED: 0, REJECTED: 0, EXHAUSTED: 0 };
    for (const r of rows) counts[r.status] = Number(r.n);
    return counts;
  }
}
