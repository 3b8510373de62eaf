/**
 * The payment hub interface's envelope and codes (docs/payments.md, "Codes"): success `{code: 0, message, data}`,
 * failure `{code, message}` with integer codes and the seed's statuses, `message` the seed's text for its codes and
 * the specifics in `data` when there are any. Typed by hubErrorCodes: a code added there does not compile until it
 * is mapped here. Also the hub's answers to the gateway's refusals.
 */
import type { Response } from 'express';
import type { HubErrorCode } from '../../application/payments/index.js';
import type { GatewayFront } from '../shared/gateway-front.js';
import { seedWording, type ErrorTable, type InterfaceErrors } from '../shared/interface-errors.js';
import { hubMessages } from './hub-messages.js';
import { json, type HttpResult } from '../shared/route.js';
import { hubRoutes } from './hub-routes.js';
import { refundHubRoutes } from './refund-routes.js';
import { sessionRoutes } from './session-routes.js';

export const hubErrorTable: ErrorTable<HubErrorCode> = {
  INVALID_PAYMENT_REQUEST: [400, '4001'],
  TRANSACTION_NOT_FOUND: [404, '4301'],
  TRANSACTION_NOT_OWNED: [403, '4200'],
  TRANSACTION_NOT_CANCELLABLE: [400, '4014'],
  TRANSACTION_NOT_CONFIRMABLE: [400, '4015'],
  DUPLICATE_ORDER: [409, '4091'],
  DUPLICATE_REFERENCE: [409, '4091'],
  USER_NOT_FOUND: [404, '4302'],
  INVALID_SIGNATURE: [401, '4102'],
  STALE_TIMESTAMP: [401, '4103'],
  IDEMPOTENCY_KEY_REUSED: [409, '4093'],
  SAVED_METHOD_NOT_FOUND: [404, '4303'],
  TRANSACTION_EXISTS: [500, '5000'],
  TRANSACTION_NOT_REFUNDABLE: [400, '4012'],
  INVALID_SNAPSHOT_STATUS: [400, '4016'],
  MISSING_ERROR_INFORMATION: [400, '4017'],
  DUPLICATE_REFUND_REFERENCE: [409, '4092'],
  PAYMENT_SESSION_NOT_FOUND: [404, '4404'],
  PAYMENT_SESSION_NOT_CANCELLABLE: [400, '4018'],
  DUPLICATE_PAYMENT_SESSION: [409, '4091'],
  PAYMENT_SESSION_EXISTS: [500, '5000'],
};

/**
 * The hub's failure body: `{code, message}`, code an integer, message the seed's text for its codes; `data` (an
 * addition) only when the refusal has specifics: `detail` (what was wrong this time, a sentence for developers),
 * `field`, and the figures of the refusal (`remainingRefundableAmount`, `status`, ...).
 */
export function sendHubError(res: Response, status: number, code: string, message: string, data: unknown): void {
  const worded = seedWording(hubMessages, code, message, data);
  res
    .status(status)
    .json(
      worded.data === null
        ? { code: Number(code), message: worded.message }
        : { code: Number(code), message: worded.message, data: worded.data },
    );
}

/** What of a domain refusal's details the caller is shown: the field, the state and the amounts it is about. */
const shownDetails = [
  'field',
  'status',
  'orderId',
  'referenceId',
  'refundReferenceId',
  'remainingRefundableAmount',
  'remainingRefundableVpoint',
  'remainingTotal',
] as const;

export const hubErrors: InterfaceErrors<HubErrorCode> = {
  name: 'payment hub',
  table: hubErrorTable,
  malformed: { invalid: '4001', tooLarge: '4001', unsupportedMediaType: '4001' },
  unknownEndpoint: '4004',
  internal: { code: '5000', message: 'Internal server error' },
  send: sendHubError,
  detailsOf: (error) => {
    const shown = shownDetails.flatMap((k) => (error.details[k] !== undefined ? [[k, error.details[k]] as const] : []));
    return shown.length > 0 ? Object.fromEntries(shown) : null;
  },
};

export const hubOk = (data?: unknown): HttpResult =>
  json(200, data === undefined ? { code: 0, message: 'Success' } : { code: 0, message: 'Success', data });

export const paymentsGatewayFront: GatewayFront = {
  interface: 'payments',
  envHeader: 'optional',
  userHeader: 'X-MiniApp-User-ID',
  routes: [...Object.values(hubRoutes), ...Object.values(refundHubRoutes), ...Object.values(sessionRoutes)],
  refusals: {
    CREDENTIALS_MISSING: [401, '4105'],
    CREDENTIALS_INVALID: [401, '4105'],
    ENVIRONMENT_MISSING: [400, '4001'],
    ENVIRONMENT_MISMATCH: [403, '4201'],
    INTERFACE_NOT_GRANTED: [403, '4201'],
    IP_NOT_ALLOWED: [403, '4201'],
    RATE_LIMITED: [429, '429'],
  },
  unavailable: [500, '5000'],
  send: sendHubError,
};
