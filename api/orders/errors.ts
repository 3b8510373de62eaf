/**
 * The order view interface's codes and errors (docs/orders-responses.md, "Answers and codes"): the typed codes of the webhooks
 * and queries → HTTP status and numeric code, through tables that do not compile with a code left out; its codes for
 * the headers, malformed requests, unknown endpoints, the gateway's refusals and the 500.
 */
import type { OrderQueryErrorCode, WebhookErrorCode } from '../../application/orders/index.js';
import { gatewayRefusalsOf } from '../shared/gateway-front.js';
import type { ErrorTable, InterfaceErrors } from '../shared/interface-errors.js';
import { sendOrdersError } from './envelope.js';

/** Every code the interface answers with besides the domain's (which its tables map), as strings of digits. */
export const ordersCodes = {
  invalidRequest: '4001',
  requestIdInvalid: '4002',
  environmentMissing: '4005',
  environmentMismatch: '4006',
  apiKeyMissing: '4010',
  apiKeyMalformed: '4011',
  apiKeyInvalid: '4012',
  apiKeyWrongEnvironment: '4013',
  secureHashMismatch: '4014',
  tokenInvalid: '4100',
  tokenMissing: '4101',
  tokenExpired: '4102',
  tokenRevoked: '4103',
  gatewayCredentialsMissing: '4110',
  gatewayCredentialsInvalid: '4111',
  interfaceNotGranted: '4201',
  ipNotAllowed: '4202',
  scopeMissing: '4203',
  consentWithdrawn: '4204',
  unknownEndpoint: '4300',
  bodyTooLarge: '4130',
  notJson: '4150',
  rateLimited: '429',
  internal: '5000',
} as const;

export const webhookErrorTable: ErrorTable<WebhookErrorCode> = {
  INVALID_ORDER_FIELD: [400, ordersCodes.invalidRequest],
  EVENT_TIMESTAMP_OUT_OF_WINDOW: [400, '4003'],
  IDEMPOTENCY_KEY_REUSED: [409, '4090'],
  ORDER_ALREADY_CREATED: [409, '4091'],
  ORDER_FIELD_IMMUTABLE: [409, '4092'],
  TOO_MANY_EARLY_EVENTS: [409, '4093'],
  // A signature that does not authenticate this body: the bad signature's code (docs/orders-signing.md).
  SECURE_HASH_REUSED: [401, ordersCodes.secureHashMismatch],
};

export const orderQueryErrorTable: ErrorTable<OrderQueryErrorCode> = {
  INVALID_ORDER_QUERY: [400, ordersCodes.invalidRequest],
  ORDER_NOT_FOUND: [404, '4301'],
};

/** The gateway's refusals in the order view's envelope (api/shared/gateway-front.ts). */
export const ordersGatewayRefusals = gatewayRefusalsOf(ordersCodes);

/** The domain's details a refusal shows: the field named, the limit passed. */
const shown: ReadonlySet<string> = new Set(['field', 'limit']);

export function ordersErrors<Code extends string>(name: string, table: ErrorTable<Code>): InterfaceErrors<Code> {
  return {
    name,
    table,
    malformed: {
      invalid: ordersCodes.invalidRequest,
      tooLarge: ordersCodes.bodyTooLarge,
      unsupportedMediaType: ordersCodes.notJson,
    },
    unknownEndpoint: ordersCodes.unknownEndpoint,
    internal: { code: ordersCodes.internal, message: 'internal error' },
    send: sendOrdersError,
    detailsOf: (error) => {
      const details = Object.entries(error.details).filter(([key]) => shown.has(key));
      return details.length ? Object.fromEntries(details) : null;
    },
  };
}
