/**
 * Events of the payment hub: the contract between its deciders, its projectors and auditors who replay them. Change
 * them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting). docs/payments.md.
 *
 * Streams:
 *   paymentMerchant-<merchantCode>        a merchant, its terminals, their keys and methods, its secret keys (merchant.ts)
 *   paymentApiKey-<sha256 of the key>      lookup guard of one paymentApiKey: its merchant and terminal, revocation
 *   paymentOrder-<sha256 of merchant,orderId>  guard: the orderId used once, and the transaction it went to
 *   paymentReference-<sha256 of merchant,referenceId>  guard: the referenceId used once, and the transaction it went to
 *   transaction-<uuid>                     one transaction (transaction.ts)
 *   paymentUserMethods-<sha256 of merchant,userId>  a host-app user's saved payment methods at a merchant (saved-methods.ts)
 *   paymentRefunds-<transactionId>         the refund ledger of one transaction (refund-ledger.ts; docs/payments-refunds.md)
 *   paymentSession-<uuid>                  one payment session of the centralized flow (payment-session.ts)
 *   paymentSessionOrder-<sha256 of merchant,orderId,referenceId>  guard: the pair used once by a session
 * Times are ISO 8601 strings in UTC; amounts are integers in minor units.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { PaymentMethodConfig, PaymentMethodType } from './payment-methods.js';
import type { SavedCard, TransactionDetails, TransactionPaymentDetails } from './transaction-details.js';
import type { PaymentSessionDetails, SessionPaymentFacts } from './payment-session-details.js';
import type { SessionRefundParts } from './session-refunds.js';

// ---- paymentMerchant-<merchantCode> ----

export type PaymentMerchantOnboarded = DomainEvent<
  'PaymentMerchantOnboarded',
  {
    merchantCode: string;
    name: string;
    ipnUrl: string;
    maxIpnRetries: number;
    onboardedBy: string;
    onboardedAt: string;
  }
>;
export type PaymentMerchantIpnChanged = DomainEvent<
  'PaymentMerchantIpnChanged',
  { merchantCode: string; ipnUrl: string; maxIpnRetries: number; changedBy: string; changedAt: string }
>;
/**
 * A secretKey issued (the first at onboarding) or rotated in: stored encrypted (AES-GCM, bound to merchant and
 * secretId). On rotation the previous current secret stays valid until `previousValidUntil`.
 */
export type MerchantSecretKeyIssued = DomainEvent<
  'MerchantSecretKeyIssued',
  {
    merchantCode: string;
    secretId: string;
    encryptedSecret: string;
    previousSecretId: string | null;
    previousValidUntil: string | null;
    issuedBy: string;
    issuedAt: string;
  }
>;
export type TerminalAdded = DomainEvent<
  'TerminalAdded',
  { merchantCode: string; terminalId: string; name: string; addedBy: string; addedAt: string }
>;
export type PaymentApiKeyIssued = DomainEvent<
  'PaymentApiKeyIssued',
  {
    merchantCode: string;
    terminalId: string;
    apiKeyId: string;
    prefix: string;
    keyDigest: string;
    expiresAt: string | null;
    issuedBy: string;
    issuedAt: string;
  }
>;
export type PaymentApiKeyRevoked = DomainEvent<
  'PaymentApiKeyRevoked',
  {
    merchantCode: string;
    terminalId: string;
    apiKeyId: string;
    keyDigest: string;
    revokedBy: string;
    revokedAt: string;
  }
>;
export type PaymentMethodConfigured = DomainEvent<
  'PaymentMethodConfigured',
  {
    merchantCode: string;
    terminalId: string;
    paymentMethodId: string;
    method: PaymentMethodConfig;
    configuredBy: string;
    configuredAt: string;
  }
>;

export type PaymentMerchantEvent =
  | PaymentMerchantOnboarded
  | PaymentMerchantIpnChanged
  | MerchantSecretKeyIssued
  | TerminalAdded
  | PaymentApiKeyIssued
  | PaymentApiKeyRevoked
  | PaymentMethodConfigured;

// ---- paymentApiKey-<digest> ----

export type PaymentApiKeyClaimed = DomainEvent<
  'PaymentApiKeyClaimed',
  { merchantCode: string; terminalId: string; apiKeyId: string; expiresAt: string | null; claimedAt: string }
>;
export type PaymentApiKeyLookupRevoked = DomainEvent<
  'PaymentApiKeyLookupRevoked',
  { merchantCode: string; terminalId: string; apiKeyId: string; revokedAt: string }
>;
export type PaymentApiKeyLookupEvent = PaymentApiKeyClaimed | PaymentApiKeyLookupRevoked;

// ---- paymentOrder-<digest> ----

export type PaymentOrderClaimed = DomainEvent<
  'PaymentOrderClaimed',
  { merchantCode: string; orderId: string; referenceId: string; transactionId: string; claimedAt: string }
>;
export type PaymentOrderEvent = PaymentOrderClaimed;

// ---- paymentReference-<digest> ----

/** A transaction's referenceId, usable once per merchant: claimed in the same append as its orderId (4091). */
export type PaymentReferenceClaimed = DomainEvent<
  'PaymentReferenceClaimed',
  { merchantCode: string; referenceId: string; orderId: string; transactionId: string; claimedAt: string }
>;
export type PaymentReferenceEvent = PaymentReferenceClaimed;

// ---- transaction-<uuid> ----

export type TransactionInitiated = DomainEvent<'TransactionInitiated', TransactionDetails>;
/** The provider took the payment: its ids, and where the payer goes (a hosted page), if anywhere. */
export type TransactionProcessing = DomainEvent<
  'TransactionProcessing',
  {
    transactionId: string;
    providerTransactionId: string;
    providerInvoiceId: string | null;
    /** Added with the sandbox providers: absent in older events (no page). */
    redirectUrl?: string | null;
    processingAt: string;
  }
>;
export type TransactionHeld = DomainEvent<
  'TransactionHeld',
  {
    transactionId: string;
    payment: TransactionPaymentDetails;
    holdExpiresAt: string;
    heldAt: string;
    /** The card the payer chose to save (its provider token encrypted). Added with saved methods: optional. */
    savedCard?: SavedCard | null;
  }
>;
/** Captured: right after authorization (AUTO_CAPTURE) or by the merchant's confirm of a hold (CONFIRM). */
export type TransactionCompleted = DomainEvent<
  'TransactionCompleted',
  {
    transactionId: string;
    via: 'AUTO_CAPTURE' | 'CONFIRM';
    payment: TransactionPaymentDetails | null;
    completedAt: string;
    /** As TransactionHeld's (AUTO_CAPTURE only). Added with saved methods: optional. */
    savedCard?: SavedCard | null;
  }
>;
export type TransactionFailed = DomainEvent<
  'TransactionFailed',
  {
    transactionId: string;
    reason: 'DECLINED' | 'ABANDONED';
    errorCode: string;
    errorMessage: string;
    failedAt: string;
  }
>;
/** Ended before capture: by the merchant's cancel, or by the hold-timeout sweep (`status` CANCELLED or TIMEOUT). */
export type TransactionCancelled = DomainEvent<
  'TransactionCancelled',
  {
    transactionId: string;
    by: 'MERCHANT' | 'HOLD_TIMEOUT';
    status: 'CANCELLED' | 'TIMEOUT';
    reason: string | null;
    requestedBy: string | null;
    cancelledAt: string;
  }
>;

/**
 * The provider carried out what the hub decided: captured a confirmed hold (CAPTURE) or voided the uncaptured payment
 * of a cancelled transaction (VOID). Recorded once per transaction, after the outcome.
 */
export type TransactionSettledAtProvider = DomainEvent<
  'TransactionSettledAtProvider',
  { transactionId: string; action: 'CAPTURE' | 'VOID'; providerReference: string; settledAt: string }
>;

/**
 * A payment result an external system reported (POST transactions/snapshot): the transaction is created in its end
 * state (COMPLETED or FAILED) at once, no provider called. docs/payments-refunds.md, "Transaction snapshot".
 */
export type TransactionSnapshotRecorded = DomainEvent<
  'TransactionSnapshotRecorded',
  TransactionDetails & {
    status: 'COMPLETED' | 'FAILED';
    providerTransactionId: string | null;
    /** The external system's processedAt (Unix ms), as an ISO 8601 instant. */
    processedAt: string;
    errorCode: string | null;
    errorMessage: string | null;
  }
>;

export type TransactionEvent =
  | TransactionSettledAtProvider
  | TransactionInitiated
  | TransactionProcessing
  | TransactionHeld
  | TransactionCompleted
  | TransactionFailed
  | TransactionCancelled
  | TransactionSnapshotRecorded;

// ---- paymentUserMethods-<digest> ----

/** A card a host-app user saved while paying (the provider's token, encrypted; the card number only masked). */
export type UserPaymentMethodSaved = DomainEvent<
  'UserPaymentMethodSaved',
  {
    merchantCode: string;
    userId: string;
    userPaymentMethodId: string;
    paymentMethodCode: string;
    methodType: PaymentMethodType;
    provider: { id: string; code: string; name: string };
    cardNo: string;
    cardBrand: string;
    expiry: string | null;
    fingerprint: string;
    encryptedToken: string;
    sourceTransactionId: string;
    savedAt: string;
  }
>;
export type UserPaymentMethodRemoved = DomainEvent<
  'UserPaymentMethodRemoved',
  { merchantCode: string; userId: string; userPaymentMethodId: string; removedBy: string; removedAt: string }
>;
export type UserPaymentMethodsEvent = UserPaymentMethodSaved | UserPaymentMethodRemoved;

// ---- paymentRefunds-<transactionId> (docs/payments-refunds.md) ----

/** A merchant backend's refund request, accepted (PENDING): its amount counts against the refundable amount. */
export type RefundRequested = DomainEvent<
  'RefundRequested',
  {
    transactionId: string;
    refundId: string;
    refundReferenceId: string;
    merchantCode: string;
    terminalId: string;
    amount: number;
    currency: string;
    refundType: 'FULL' | 'PARTIAL';
    reason: string | null;
    requestedBy: string | null;
    /** X-User-ID: the user performing the refund. */
    userId: string;
    refundVpoint: number | null;
    providerCode: string;
    /** What can still be refunded after this refund (the response's remainingRefundableAmount). */
    remainingRefundableAmount: number;
    requestedAt: string;
    /**
     * A payment-session transaction only (docs/payments-refunds.md, "Payment-session transactions"): the points and
     * vouchers this refund returns beside its money `amount`. Added with session refunds: optional.
     */
    session?: SessionRefundParts;
    /** A payment-session transaction only: the points still refundable after this refund. Optional (as `session`). */
    remainingRefundableVpoint?: number;
  }
>;
/** The provider took the refund (the refund reactor called it): PROCESSING until its callback. */
export type RefundProcessing = DomainEvent<
  'RefundProcessing',
  { transactionId: string; refundId: string; providerRefundId: string; processingAt: string }
>;
export type RefundCompleted = DomainEvent<
  'RefundCompleted',
  {
    transactionId: string;
    refundId: string;
    refundReferenceId: string;
    amount: number;
    currency: string;
    providerRefundId: string | null;
    completedAt: string;
    /** The request's `session` parts, returned with the money (a session transaction only). Optional. */
    session?: SessionRefundParts;
  }
>;
/** The provider refused the refund: its amount is refundable again. */
export type RefundFailed = DomainEvent<
  'RefundFailed',
  {
    transactionId: string;
    refundId: string;
    refundReferenceId: string;
    amount: number;
    currency: string;
    errorCode: string;
    errorMessage: string;
    failedAt: string;
    /** The request's `session` parts, not returned either (a session transaction only). Optional. */
    session?: SessionRefundParts;
  }
>;
/** A refund result an external system reported (POST refunds/snapshot), recorded in its end state. */
export type RefundSnapshotRecorded = DomainEvent<
  'RefundSnapshotRecorded',
  {
    transactionId: string;
    refundId: string;
    refundReferenceId: string;
    merchantCode: string;
    terminalId: string;
    amount: number;
    currency: string;
    refundType: 'FULL' | 'PARTIAL';
    status: 'COMPLETED' | 'FAILED';
    /** The external system's processedAt (Unix ms), as an ISO 8601 instant. */
    processedAt: string;
    errorCode: string | null;
    errorMessage: string | null;
    remainingRefundableAmount: number;
    recordedAt: string;
  }
>;
export type RefundLedgerEvent =
  RefundRequested | RefundProcessing | RefundCompleted | RefundFailed | RefundSnapshotRecorded;
// ---- paymentSession-<uuid> (docs/payments-sessions.md) ----

/** Opened by the merchant backend: the order, its settled VOUCHER/VPOINT lines and the PAYMENT line the hub added. */
export type PaymentSessionCreated = DomainEvent<'PaymentSessionCreated', PaymentSessionDetails>;
/** Init payment named the session: its PAYMENT line goes to this transaction (appended with the transaction). */
export type PaymentSessionProcessing = DomainEvent<
  'PaymentSessionProcessing',
  { paymentSessionId: string; transactionId: string; method: string; provider: string; processingAt: string }
>;
/** Paid: by its transaction (COMPLETED), or at creation when vouchers and points cover the order (no transaction). */
export type PaymentSessionCompleted = DomainEvent<
  'PaymentSessionCompleted',
  { paymentSessionId: string; transactionId: string | null; payment: SessionPaymentFacts | null; completedAt: string }
>;
/** Ended before payment: by the backend's cancel (PENDING), or because its transaction failed or was cancelled. */
export type PaymentSessionCancelled = DomainEvent<
  'PaymentSessionCancelled',
  {
    paymentSessionId: string;
    by: 'MERCHANT' | 'PAYMENT_FAILED';
    transactionId: string | null;
    reason: string | null;
    requestedBy: string | null;
    errorCode: string | null;
    errorMessage: string | null;
    cancelledAt: string;
  }
>;
/** No payment started by expiresAt (the session's stored timer). */
export type PaymentSessionExpired = DomainEvent<
  'PaymentSessionExpired',
  { paymentSessionId: string; expiredAt: string }
>;

export type PaymentSessionEvent =
  | PaymentSessionCreated
  | PaymentSessionProcessing
  | PaymentSessionCompleted
  | PaymentSessionCancelled
  | PaymentSessionExpired;

// ---- paymentSessionOrder-<digest> ----

export type PaymentSessionOrderClaimed = DomainEvent<
  'PaymentSessionOrderClaimed',
  { merchantCode: string; orderId: string; referenceId: string; paymentSessionId: string; claimedAt: string }
>;
export type PaymentSessionOrderEvent = PaymentSessionOrderClaimed;

export type PaymentsEvent =
  | PaymentMerchantEvent
  | PaymentApiKeyLookupEvent
  | PaymentOrderEvent
  | PaymentReferenceEvent
  | TransactionEvent
  | UserPaymentMethodsEvent
  | RefundLedgerEvent
  | PaymentSessionEvent
  | PaymentSessionOrderEvent;

export const streams = {
  merchant: (merchantCode: string) => `paymentMerchant-${merchantCode}`,
  apiKey: (keyDigest: string) => `paymentApiKey-${keyDigest}`,
  /** `orderDigest`: sha256 hex of `${merchantCode}\n${orderId}` (the application hashes; any orderId fits a name). */
  order: (orderDigest: string) => `paymentOrder-${orderDigest}`,
  /** `referenceDigest`: sha256 hex of `${merchantCode}\n${referenceId}` (the application hashes, as for orders). */
  reference: (referenceDigest: string) => `paymentReference-${referenceDigest}`,
  transaction: (transactionId: string) => `transaction-${transactionId}`,
  /** `userDigest`: sha256 hex of `${merchantCode}\n${userId}` (the application hashes, as for orders). */
  userMethods: (userDigest: string) => `paymentUserMethods-${userDigest}`,
  /** The refund ledger of a transaction: every refund decision of it is made on this stream's version. */
  refunds: (transactionId: string) => `paymentRefunds-${transactionId}`,
  paymentSession: (paymentSessionId: string) => `paymentSession-${paymentSessionId}`,
  /** `pairDigest`: sha256 hex of `${merchantCode}\n${orderId}\n${referenceId}` (the application hashes). */
  paymentSessionOrder: (pairDigest: string) => `paymentSessionOrder-${pairDigest}`,
};
