/**
 * The part of a transaction's details a merchant backend's request gives, shared by init payment
 * (transaction-init.ts) and the transaction snapshot (transaction-snapshot.ts): the merchant and terminal, the order,
 * the method and provider chosen, the optional fields as sent (null when absent), the payer; and the claims of the
 * merchant's orderId and referenceId (each usable once) appended with the transaction. docs/payments.md.
 */
import { createHash } from 'node:crypto';
import {
  paymentsDecoders,
  paymentsError,
  streams,
  type ConfiguredMethod,
  type OrderInfo,
  type ProviderInfo,
  type TransactionDetails,
  type TransactionPayer,
} from '../../domain/payments/index.js';
import type { GuardClaim } from '../shared/guard-claims.js';

/** The request fields both carry. */
export interface TransactionRequestFields {
  amount: number;
  currency: string;
  description: string;
  orderId: string;
  referenceId: string;
  sellerMerchantId?: string;
  businessUnitId?: string;
  branchId?: string;
  returnUrl?: string;
  providerData?: string;
  orderInfo?: OrderInfo;
  miniAppId?: string;
  authAudience?: string;
}

export type RequestedDetails = Pick<
  TransactionDetails,
  | 'transactionId'
  | 'merchantCode'
  | 'merchantName'
  | 'terminalId'
  | 'orderId'
  | 'referenceId'
  | 'amount'
  | 'currency'
  | 'description'
  | 'paymentMethod'
  | 'provider'
  | 'sellerMerchantId'
  | 'businessUnitId'
  | 'branchId'
  | 'returnUrl'
  | 'providerData'
  | 'orderInfo'
  | 'payer'
  | 'miniAppId'
  | 'authAudience'
>;

export function requestedDetails(p: {
  transactionId: string;
  merchant: { merchantCode: string; name: string };
  terminalId: string;
  method: ConfiguredMethod;
  provider: ProviderInfo;
  payer: TransactionPayer;
  req: TransactionRequestFields;
}): RequestedDetails {
  const { req, method, provider } = p;
  return {
    transactionId: p.transactionId,
    merchantCode: p.merchant.merchantCode,
    merchantName: p.merchant.name,
    terminalId: p.terminalId,
    orderId: req.orderId,
    referenceId: req.referenceId,
    amount: req.amount,
    currency: req.currency,
    description: req.description,
    paymentMethod: { id: method.paymentMethodId, code: method.code, name: method.names.en, type: method.type },
    provider: { id: provider.id, code: provider.code, name: provider.name },
    sellerMerchantId: req.sellerMerchantId ?? null,
    businessUnitId: req.businessUnitId ?? null,
    branchId: req.branchId ?? null,
    returnUrl: req.returnUrl ?? null,
    providerData: req.providerData ?? null,
    orderInfo: req.orderInfo ?? null,
    payer: p.payer,
    miniAppId: req.miniAppId ?? null,
    authAudience: req.authAudience ?? null,
  };
}

/** The guard stream of a merchant's orderId: any orderId makes a short, safe stream name. */
export const orderStream = (merchantCode: string, orderId: string) =>
  streams.order(createHash('sha256').update(`${merchantCode}\n${orderId}`, 'utf8').digest('hex'));

export const duplicateOrder = (orderId: string) =>
  paymentsError('DUPLICATE_ORDER', `orderId ${orderId} was used by another transaction`, { field: 'orderId', orderId });

/** The orderId claim a new transaction appends with itself; lost to another transaction: 409 4091. */
export function orderClaim(details: ClaimedDetails): GuardClaim {
  return {
    streamName: orderStream(details.merchantCode, details.orderId),
    event: {
      type: 'PaymentOrderClaimed',
      data: {
        merchantCode: details.merchantCode,
        orderId: details.orderId,
        referenceId: details.referenceId,
        transactionId: details.transactionId,
        claimedAt: details.createdAt,
      },
    },
    lost: () => duplicateOrder(details.orderId),
    // A claim whose transaction was never written (a partial write) is taken over.
    claimant: (recorded) => streams.transaction(paymentsDecoders.order.decode(recorded).data.transactionId),
  };
}

/** The guard stream of a merchant's referenceId, hashed as the orderId's is. */
export const referenceStream = (merchantCode: string, referenceId: string) =>
  streams.reference(createHash('sha256').update(`${merchantCode}\n${referenceId}`, 'utf8').digest('hex'));

export const duplicateReference = (referenceId: string) =>
  paymentsError('DUPLICATE_REFERENCE', `referenceId ${referenceId} was used by another transaction`, {
    field: 'referenceId',
    referenceId,
  });

/**
 * The referenceId claim: the seed's 4091 is "pair or reference already used", so a referenceId reused with another
 * orderId is refused too (per merchant), in the same append as the orderId's claim: of two inits racing with one
 * referenceId, exactly one is written.
 */
export function referenceClaim(details: ClaimedDetails): GuardClaim {
  return {
    streamName: referenceStream(details.merchantCode, details.referenceId),
    event: {
      type: 'PaymentReferenceClaimed',
      data: {
        merchantCode: details.merchantCode,
        referenceId: details.referenceId,
        orderId: details.orderId,
        transactionId: details.transactionId,
        claimedAt: details.createdAt,
      },
    },
    lost: () => duplicateReference(details.referenceId),
    claimant: (recorded) => streams.transaction(paymentsDecoders.reference.decode(recorded).data.transactionId),
  };
}

type ClaimedDetails = Pick<
  TransactionDetails,
  'merchantCode' | 'orderId' | 'referenceId' | 'transactionId' | 'createdAt'
>;

/** What a new transaction claims in its append (init and snapshot alike): its orderId, then its referenceId. */
export const transactionClaims = (details: ClaimedDetails): GuardClaim[] => [
  orderClaim(details),
  referenceClaim(details),
];
