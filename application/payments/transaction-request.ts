/**
 * The part of a transaction's details a merchant backend's request gives, shared by init payment
 * (transaction-init.ts) and the transaction snapshot (transaction-snapshot.ts): the merchant and terminal, the order,
 * the method and provider chosen, the optional fields as sent (null when absent), the payer. docs/payments.md.
 */
import type {
  ConfiguredMethod,
  OrderInfo,
  ProviderInfo,
  TransactionDetails,
  TransactionPayer,
} from '../../domain/payments/index.js';

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
