/** Transactions as the payment hub answers them: the seed's Transaction fields and init's `data` (docs/payments.md). */
import type {
  ListedPaymentMethod,
  PaymentInfo,
  SavedPaymentMethod,
  Transaction,
} from '../../application/payments/index.js';

/** One `data.items[]` of GET /transactions. */
export function transactionItemJson(t: Transaction) {
  return {
    id: t.transactionId,
    referenceId: t.referenceId,
    orderId: t.orderId,
    amount: t.amount,
    currency: t.currency,
    status: t.status,
    description: t.description,
    expiresAt: t.expiresAt,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    merchant: { code: t.merchantCode, name: t.merchantName },
    providerTransactionId: t.providerTransactionId,
    providerInvoiceId: t.providerInvoiceId,
    paymentMethod: { ...t.paymentMethod },
    provider: { id: t.provider.id, name: t.provider.name },
    bankName: t.payment?.bankName ?? null,
    accountHolderName: t.payment?.accountHolderName ?? null,
    // Providers report it masked already; the hub never keeps a full card number.
    cardNo: t.payment?.cardNo ?? null,
    breakdown: null,
    orderInfo: t.orderInfo,
  };
}

/** POST /transactions `data`. */
export function initPaymentJson({
  transaction: t,
  paymentInfo: p,
}: {
  transaction: Transaction;
  paymentInfo: PaymentInfo;
}) {
  return {
    transaction: {
      id: t.transactionId,
      referenceId: t.referenceId,
      orderId: t.orderId,
      amount: t.amount,
      currency: t.currency,
      status: t.status,
      description: t.description,
      cardType: t.cardType,
      skipHolding: t.skipHolding,
      expiresAt: t.expiresAt,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
    },
    paymentInfo: {
      requiresRedirect: p.requiresRedirect,
      ...(p.redirectUrl !== null && { redirectUrl: p.redirectUrl }),
      providerCode: p.providerCode,
      providerId: p.providerId,
      providerTransaction: p.providerTransaction,
      amount: p.amount,
    },
  };
}

/** A saved payment method as the hub shows it: the card masked, never its token or fingerprint. */
export function savedMethodJson(m: SavedPaymentMethod) {
  return {
    userPaymentMethodId: m.userPaymentMethodId,
    paymentMethodCode: m.paymentMethodCode,
    type: m.methodType,
    provider: { id: m.provider.id, name: m.provider.name, code: m.provider.code },
    cardNo: m.cardNo,
    cardBrand: m.cardBrand,
    expiry: m.expiry,
    createdAt: m.savedAt,
  };
}

/** One `items[]` of GET /payment-methods (its saved cards, when listed, as savedMethodJson). */
export function paymentMethodJson({ savedMethods, ...m }: ListedPaymentMethod) {
  return savedMethods ? { ...m, savedMethods: savedMethods.map(savedMethodJson) } : m;
}
