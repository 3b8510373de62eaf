/**
 * Events of the central order view: the contract between its deciders, its projectors and auditors who replay them.
 * Change them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting). docs/orders-ordering.md explains each.
 *
 * Streams:
 *   orderMerchant-<merchantId>          a merchant (accounting partner code) and its webhook keys (order-merchant.ts)
 *   orderApiKey-<sha256 of the apiKey>  lookup guard of one key: its merchant, environment, encrypted secretKey, state
 *   order-<merchantId>-<orderId>        one order, as its webhooks told it (order.ts)
 *   orderSignature-<digest>             guard of one secure_hash of a merchant: the one webhook content it signs
 *                                       (order-signature.ts; the digest of (merchantId, secure_hash))
 * Times are ISO 8601 strings in UTC; event timestamps (the sender's) are Unix ms.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { OrderChanges, OrderFieldKey, OrderSource } from './order-fields.js';

// ---- orderMerchant-<merchantId> ----

export type KeyEnvironment = 'live' | 'test';

export type OrderMerchantRegistered = DomainEvent<
  'OrderMerchantRegistered',
  { merchantId: string; name: string; registeredAt: string }
>;

/** A key pair issued: the apiKey only as its digest and shown prefix, the secretKey only encrypted (bound to the key). */
export type OrderKeyIssued = DomainEvent<
  'OrderKeyIssued',
  {
    merchantId: string;
    keyId: number;
    environment: KeyEnvironment;
    prefix: string;
    keyDigest: string;
    secretCiphertext: string;
    /** The key this one replaces (a rotation), or null. */
    rotatedFrom: number | null;
    issuedAt: string;
  }
>;

/** A rotated key keeps working until retiresAt (the overlap window), then is refused. */
export type OrderKeyRetiring = DomainEvent<
  'OrderKeyRetiring',
  { merchantId: string; keyId: number; keyDigest: string; retiresAt: string; rotatedAt: string }
>;

export type OrderKeyRevoked = DomainEvent<
  'OrderKeyRevoked',
  { merchantId: string; keyId: number; keyDigest: string; revokedAt: string }
>;

export type OrderMerchantEvent = OrderMerchantRegistered | OrderKeyIssued | OrderKeyRetiring | OrderKeyRevoked;

// ---- orderApiKey-<digest> ----

export type OrderApiKeyClaimed = DomainEvent<
  'OrderApiKeyClaimed',
  { merchantId: string; keyId: number; environment: KeyEnvironment; secretCiphertext: string; claimedAt: string }
>;
export type OrderApiKeyRetiring = DomainEvent<'OrderApiKeyRetiring', { keyId: number; retiresAt: string }>;
export type OrderApiKeyRevoked = DomainEvent<'OrderApiKeyRevoked', { keyId: number; revokedAt: string }>;

export type OrderApiKeyEvent = OrderApiKeyClaimed | OrderApiKeyRetiring | OrderApiKeyRevoked;

// ---- order-<merchantId>-<orderId> ----

export type WebhookKind = 'CREATED' | 'UPDATED' | 'CANCELLED';

/** What every order event says of the webhook that brought it. */
interface Received {
  merchantId: string;
  orderId: string;
  /** The sender's event_timestamp (Unix ms). */
  eventTimestamp: number;
  /** sha256 of what the webhook says (docs/orders-ordering.md, "Ordering"): tells a repeat from a new event. */
  fingerprint: string;
  /** The sender's X-Request-Id. */
  requestId: string;
  /** When this service received it. */
  receivedAt: string;
}

/** order.created: the sender's snapshot. Its fields are the order's first values. */
export type OrderCreated = DomainEvent<'OrderCreated', Received & { source: OrderSource; order: OrderChanges }>;

/**
 * order.updated or order.cancelled as sent (`order`), and what it did: `applied` the fields it set, `stale` those a
 * newer event had set already (kept in history, not shown). `early`: it had waited for order.created.
 */
export type OrderChangeData = Received & {
  order: OrderChanges;
  applied: OrderFieldKey[];
  stale: OrderFieldKey[];
  early: boolean;
};

export type OrderUpdated = DomainEvent<'OrderUpdated', OrderChangeData>;
export type OrderCancelled = DomainEvent<'OrderCancelled', OrderChangeData>;

/** An updated or cancelled before the order's created: kept, applied when created comes (within the early window). */
export type OrderEventParked = DomainEvent<
  'OrderEventParked',
  Received & { kind: Exclude<WebhookKind, 'CREATED'>; order: OrderChanges }
>;

/** A parked event that will never apply: it waited past the early window, or contradicts the created's fixed fields. */
export type OrderEarlyEventDiscarded = DomainEvent<
  'OrderEarlyEventDiscarded',
  {
    merchantId: string;
    orderId: string;
    fingerprint: string;
    eventTimestamp: number;
    reason: 'EXPIRED' | 'IMMUTABLE_FIELD_CHANGED';
    discardedAt: string;
  }
>;

// ---- orderSignature-<digest> ----

/**
 * A merchant's secure_hash was taken for one webhook: its kind and content (`fingerprint`, with `eventTimestamp`).
 * The same webhook again finds its own claim; any other content under that hash is refused (docs/orders-signing.md,
 * "One signature, one webhook").
 */
export type OrderSignatureClaimed = DomainEvent<
  'OrderSignatureClaimed',
  {
    merchantId: string;
    orderId: string;
    kind: WebhookKind;
    eventTimestamp: number;
    fingerprint: string;
    claimedAt: string;
  }
>;

export type OrderSignatureEvent = OrderSignatureClaimed;

export type OrderEvent = OrderCreated | OrderUpdated | OrderCancelled | OrderEventParked | OrderEarlyEventDiscarded;

export type OrdersEvent = OrderMerchantEvent | OrderApiKeyEvent | OrderEvent | OrderSignatureEvent;

export const streams = {
  orderMerchant: (merchantId: string) => `orderMerchant-${merchantId}`,
  orderApiKey: (keyDigest: string) => `orderApiKey-${keyDigest}`,
  order: (merchantId: string, orderId: string) => `order-${merchantId}-${orderId}`,
  orderSignature: (digest: string) => `orderSignature-${digest}`,
};
