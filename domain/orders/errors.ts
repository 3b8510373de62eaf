/**
 * Why an order-view command was refused: the orders context's typed codes (docs/orders-responses.md, "Answers and codes").
 * Each interface maps them through its own table (api/orders/*): a code added here does not compile until every
 * table that can receive it maps it.
 */
import { DomainError } from '../shared/errors.js';

/** Operators' commands on merchants and their webhook credentials. */
export const credentialErrorCodes = [
  /** Operator input breaks a rule; details.field names the field. */
  'INVALID_CREDENTIAL_REQUEST',
  'ORDER_MERCHANT_NOT_FOUND',
  'ORDER_MERCHANT_EXISTS',
  'ORDER_KEY_NOT_FOUND',
  /** The merchant already holds an active key for that environment: rotate it instead. */
  'ORDER_KEY_ACTIVE_EXISTS',
  /** Only an active key can be rotated. */
  'ORDER_KEY_NOT_ACTIVE',
  /** A resend of an issue or rotation: its secrets were shown once and are not shown again. */
  'ORDER_KEY_SHOWN_ONCE',
  /** A different request under a used X-Idempotency-Key (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
] as const;

export type CredentialErrorCode = (typeof credentialErrorCodes)[number];

/** The webhooks (order.created, order.updated, order.cancelled). */
export const webhookErrorCodes = [
  /** A field breaks a rule of the seed's tables; details.field names it as sent (`order.items[0].quantity`). */
  'INVALID_ORDER_FIELD',
  /** event_timestamp too far in the past or ahead of this service's clock (the window is configured). */
  'EVENT_TIMESTAMP_OUT_OF_WINDOW',
  /** A created for an order that exists with other content. */
  'ORDER_ALREADY_CREATED',
  /** business_unit_id or branch_id differs from what order.created set. */
  'ORDER_FIELD_IMMUTABLE',
  /** Too many updated/cancelled events wait for an order.created that has not come. */
  'TOO_MANY_EARLY_EVENTS',
  /** A different request under a used X-Request-Id (raised by the command handler). */
  'IDEMPOTENCY_KEY_REUSED',
  /** The secure_hash was taken by another webhook (another body, endpoint or order): order-signature.ts. */
  'SECURE_HASH_REUSED',
] as const;

export type WebhookErrorCode = (typeof webhookErrorCodes)[number];

/** Queries of the customer app and the portal. */
export const orderQueryErrorCodes = ['ORDER_NOT_FOUND', 'INVALID_ORDER_QUERY'] as const;

export type OrderQueryErrorCode = (typeof orderQueryErrorCodes)[number];

export type OrdersErrorCode = CredentialErrorCode | WebhookErrorCode | OrderQueryErrorCode;

export type OrdersError = DomainError<OrdersErrorCode>;

export function ordersError(
  code: OrdersErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): OrdersError {
  return new DomainError(code, message, details);
}
