/**
 * The checkout interface's envelope and errors (spec part B, "Errors"; docs/checkout.md, "Codes"): `code` "0" and
 * "Success" on success; the seed's 8001 to 8012, 8500 and 8501 at its HTTP statuses and with its messages for the
 * domain's refusals (the specifics in `data`), and this service's own 84xx codes for what the seed does not show (a
 * malformed request, credentials). A domain code left out of the table does not compile.
 */
import type { Response } from 'express';
import type { CheckoutInterfaceErrorCode } from '../../application/checkout/index.js';
import {
  interfaceErrorHandler,
  seedWording,
  type ErrorTable,
  type InterfaceErrors,
  type SeedMessages,
} from '../shared/interface-errors.js';
import { json, type HttpResult } from '../shared/route.js';
import type { Logger } from '../../application/shared/logger.js';

export const checkoutOk = (data: unknown): HttpResult => json(200, { code: '0', message: 'Success', data });

/** The seed's error table (spec part B, "Errors"), word for word: clients show these to people. */
export const checkoutMessages: SeedMessages = {
  '8001': 'Voucher not applicable',
  '8002': 'Invalid voucher code',
  '8003': 'Voucher not found',
  '8004': 'Voucher already reserved',
  '8005': 'Voucher out of stock',
  '8006': 'Order minimum not met',
  '8007': 'Voucher expired',
  '8008': 'Usage limit exceeded',
  '8009': 'User not eligible',
  '8010': 'Reservation not found',
  '8011': 'Reservation expired',
  '8012': 'Reservation already confirmed',
  '8500': 'Promotion service error',
  '8501': 'Promotion service timeout',
};

/**
 * `{code, message, data}`: for the seed's codes `message` is its text and what was wrong this time is `data.detail`
 * (a sentence for developers), beside the refusal's specifics; the service's own codes keep their own message.
 */
export function sendCheckoutError(res: Response, status: number, code: string, message: string, data: unknown): void {
  const worded = seedWording(checkoutMessages, code, message, data);
  res.status(status).json({ code, message: worded.message, data: worded.data });
}

/** This service's own codes, where the seed shows none. */
export const checkoutCodes = {
  invalid: '8400',
  unauthenticated: '8401',
  forbidden: '8403',
  unknownEndpoint: '8404',
  idempotencyKeyReused: '8409',
  tooLarge: '8413',
  unsupportedMediaType: '8415',
  rateLimited: '8429',
  internal: '8500',
  unavailable: '8501',
} as const;

export const checkoutErrorTable: ErrorTable<CheckoutInterfaceErrorCode> = {
  PROMOTION_NOT_APPLICABLE: [400, '8001'],
  SHARED_NOT_SUPPORTED: [400, '8001'],
  PROMOTION_NOT_USED: [400, '8001'],
  RESERVATION_NOT_CONFIRMED: [400, '8001'],
  PROMOTION_CODE_INVALID: [400, '8002'],
  PROMOTION_NOT_FOUND: [404, '8003'],
  PROMOTION_ALREADY_RESERVED: [409, '8004'],
  // One promotion per order (docs/checkout.md): the seed's nearest codes, "Voucher already reserved" for an order
  // whose reservation is held and "Reservation already confirmed" for one whose reservation was confirmed.
  ORDER_ALREADY_RESERVED: [409, '8004'],
  ORDER_ALREADY_CONFIRMED: [409, '8012'],
  QUOTA_EXHAUSTED: [409, '8005'],
  ORDER_MINIMUM_NOT_MET: [422, '8006'],
  PROMOTION_EXPIRED: [422, '8007'],
  USAGE_LIMIT_REACHED: [422, '8008'],
  PROMOTION_NOT_OWNED: [422, '8009'],
  RESERVATION_NOT_FOUND: [404, '8010'],
  PROMOTION_RESERVATION_NOT_FOUND: [404, '8010'],
  RESERVATION_EXPIRED: [409, '8011'],
  RESERVATION_ALREADY_CONFIRMED: [409, '8012'],
  PROMOTION_ALREADY_USED: [409, '8012'],
  IDEMPOTENCY_KEY_REUSED: [409, checkoutCodes.idempotencyKeyReused],
  // A reservation key or promotion id handed out twice: a bug, answered as the service's error.
  RESERVATION_EXISTS: [500, checkoutCodes.internal],
  PROMOTION_EXISTS: [500, checkoutCodes.internal],
};

/** What of a refusal's details the caller sees, in the interface's snake_case. */
const shownDetails: Record<string, string> = {
  promotionId: 'promotion_id',
  promotionMasterId: 'promotion_master_id',
  reservationKey: 'reservation_key',
  reason: 'reason',
  field: 'field',
  minOrderValue: 'min_order_value',
  remainingAmount: 'remaining_amount',
};

export const checkoutErrors: InterfaceErrors<CheckoutInterfaceErrorCode> = {
  name: 'checkout',
  table: checkoutErrorTable,
  malformed: {
    invalid: checkoutCodes.invalid,
    tooLarge: checkoutCodes.tooLarge,
    unsupportedMediaType: checkoutCodes.unsupportedMediaType,
  },
  unknownEndpoint: checkoutCodes.unknownEndpoint,
  internal: { code: checkoutCodes.internal, message: 'Promotion service error' },
  unavailable: { status: 502, code: checkoutCodes.unavailable },
  send: sendCheckoutError,
  detailsOf: (error) => {
    const shown = Object.entries(error.details).flatMap(([k, v]) =>
      shownDetails[k] && v !== undefined ? [[shownDetails[k], v] as const] : [],
    );
    return shown.length > 0 ? Object.fromEntries(shown) : null;
  },
};

export const checkoutErrorHandler = (logger: Logger) => interfaceErrorHandler(checkoutErrors, logger);
