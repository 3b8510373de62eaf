/**
 * What the IPN dispatcher and the operators' IPN views need of the outside world (docs/ipn.md): the outbox
 * (infrastructure/payments/ipn-outbox-store.ts, PostgreSQL) and an HTTP sender (ipn-http-sender.ts).
 */
import type { AttemptVerdict, IpnContent, IpnDeliveryStatus, PartnerStatus } from '../../domain/payments/index.js';

/** A notification this dispatcher holds a lease on, to make attempt `attemptNo`. */
export interface ClaimedNotification {
  notificationId: string;
  merchantCode: string;
  transactionId: string;
  content: IpnContent;
  attemptNo: number;
  roundStart: number;
  /** The claim's fencing token: only it may record this attempt's result. */
  fence: number;
}

export interface AttemptResult {
  notificationId: string;
  attemptNo: number;
  fence: number;
  url: string | null;
  httpStatus: number | null;
  latencyMs: number | null;
  responseHead: string | null;
  partnerStatus: PartnerStatus | null;
  error: string | null;
  /** RETRY, or how it ended (EXHAUSTED: a retryable failure with no retry left). */
  verdict: AttemptVerdict | 'EXHAUSTED';
  /** The notification after it: its status and, when PENDING, when the next attempt is due. */
  status: IpnDeliveryStatus;
  nextAttemptAt: string | null;
}

export interface ClaimOptions {
  limit: number;
  /** Attempts in flight per merchant at most (across dispatchers): a dead partner holds only these. */
  perMerchant: number;
  leaseMs: number;
}

export interface NotificationFilter {
  merchantCode?: string;
  transactionId?: string;
  status?: IpnDeliveryStatus;
  limit: number;
}

export interface NotificationView {
  notificationId: string;
  merchantCode: string;
  transactionId: string;
  orderId: string;
  transactionType: string;
  ipnStatus: string;
  processedAt: number;
  status: IpnDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
  resentBy: string | null;
  resentAt: string | null;
}

export interface AttemptView {
  notificationId: string;
  attemptNo: number;
  merchantCode: string;
  transactionId: string;
  dispatcher: string;
  startedAt: string;
  url: string | null;
  httpStatus: number | null;
  latencyMs: number | null;
  responseHead: string | null;
  partnerStatus: string | null;
  error: string | null;
  verdict: string | null;
  finishedAt: string | null;
}

export interface IpnOutbox {
  /**
   * Leases due notifications to `owner` (each claim raises the fence and reserves the next attempt number; an attempt
   * left without a result by a dead dispatcher is marked INTERRUPTED): the earliest of each transaction only, no more
   * per merchant than `perMerchant` in flight, merchants served in turn.
   */
  claim(owner: string, now: Date, options: ClaimOptions): Promise<ClaimedNotification[]>;
  /** Records an attempt's result, if the claim's fence still holds (else false: another dispatcher took it over). */
  record(result: AttemptResult, now: Date): Promise<boolean>;
  /** The dispatchers holding leases now. */
  leaseHolders(now: Date): Promise<string[]>;
  /** Ends at once the leases of `owners` (dispatchers known to be dead): their notifications can be claimed. */
  expireLeases(owners: readonly string[], now: Date): Promise<number>;
  list(filter: NotificationFilter): Promise<NotificationView[]>;
  attempts(filter: Omit<NotificationFilter, 'status'> & { notificationId?: string }): Promise<AttemptView[]>;
  /** Sends one notification again (a new round of retries); null: no such notification of the merchant. */
  resend(merchantCode: string, notificationId: string, by: string, now: Date): Promise<NotificationView | null>;
  /** Sends every EXHAUSTED notification of the merchant again; answers how many. */
  resendExhausted(merchantCode: string, by: string, now: Date): Promise<number>;
  /** Notifications per status, for the metrics. */
  countByStatus(): Promise<Record<IpnDeliveryStatus, number>>;
}

/** How one POST went, before the hub judges it. */
export type PostResult =
  | { kind: 'RESPONSE'; httpStatus: number; body: string; truncated: boolean; latencyMs: number }
  | { kind: 'TIMEOUT'; latencyMs: number }
  | { kind: 'NETWORK_ERROR'; message: string; latencyMs: number }
  /** The egress policy refused the target (docs/outbound.md): nothing was sent. */
  | { kind: 'REFUSED'; message: string; latencyMs: number };

export interface IpnSender {
  /**
   * POSTs `body` (JSON) to `url` under the egress policy, never following a redirect, reading at most a small part of
   * the answer; `signal` cuts it short (a NETWORK_ERROR) when the dispatcher stops.
   */
  post(
    url: URL,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<PostResult>;
}
