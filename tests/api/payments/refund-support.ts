/**
 * Signed bodies of the hub's refund and snapshot endpoints (docs/payments-refunds.md, "Signing"), built with the raw
 * strings written out here by hand, not with the code under test.
 */
import { sign, walletProviderId } from './support.js';

export const orderCreatedAt = 1772359200000;
export const processedAt = 1772359500000;

/** A transaction snapshot body for WALLET through the sandbox wallet, signed over its string. */
export function transactionSnapshotBody(
  secretKey: string,
  timestamp: string,
  orderId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    amount: 150000,
    currency: 'VND',
    description: `Order ${orderId}`,
    orderId,
    referenceId: `REF-${orderId}`,
    paymentMethodCode: 'WALLET',
    providerId: walletProviderId,
    orderInfo: { customerName: 'Nguyen Van A', orderCreatedAt, items: [] },
    status: 'COMPLETED',
    processedAt,
    providerTransactionId: `EXT-${orderId}`,
    ...extra,
  };
  const optional = ['branchId', 'businessUnitId'].filter((f) => body[f] !== undefined).map((f) => `|${body[f]}`);
  const raw = `${orderId}|${body.referenceId}|${Math.trunc(body.amount as number)}|VND|${orderCreatedAt}${optional.join('')}|${body.status}|${body.processedAt}|${timestamp}`;
  return { ...body, secureHash: sign(secretKey, raw) };
}

/** A refund body by transactionId (or, with `pair`, by orderId and referenceId), signed over its string. */
export function refundBody(
  secretKey: string,
  timestamp: string,
  ref: { transactionId: string } | { orderId: string; referenceId: string },
  fields: { amount: number; refundReferenceId: string; refundType?: string; refundVpoint?: number },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const refundType = fields.refundType ?? 'PARTIAL';
  const head = 'transactionId' in ref ? ref.transactionId : `${ref.orderId}|${ref.referenceId}`;
  const vpoint = fields.refundVpoint === undefined ? '' : `|${fields.refundVpoint}`;
  const raw = `${head}|${Math.trunc(fields.amount)}|${fields.refundReferenceId}|${refundType}${vpoint}|${timestamp}`;
  return { ...ref, ...fields, refundType, ...extra, secureHash: sign(secretKey, raw) };
}

/** A refund snapshot body, signed over transactionId|amount|currency|refundReferenceId|refundType|status|processedAt|timestamp. */
export function refundSnapshotBody(
  secretKey: string,
  timestamp: string,
  transactionId: string,
  fields: { amount: number; refundReferenceId: string; refundType?: string; status?: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const body = {
    transactionId,
    currency: 'VND',
    refundType: 'partial',
    status: 'COMPLETED',
    processedAt,
    ...fields,
    ...extra,
  };
  const raw = `${transactionId}|${body.amount}|${body.currency}|${body.refundReferenceId}|${body.refundType}|${body.status}|${body.processedAt}|${timestamp}`;
  return { ...body, secureHash: sign(secretKey, raw) };
}
