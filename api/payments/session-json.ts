/** A payment session as the hub answers it (docs/payments-sessions.md, "The resource"; the seed's table). */
import type { PaymentSession } from '../../application/payments/index.js';

export function paymentSessionJson(s: PaymentSession) {
  return {
    paymentSessionId: s.paymentSessionId,
    orderId: s.orderId,
    referenceId: s.referenceId,
    status: s.status,
    amount: s.amount,
    currency: s.currency,
    originalAmount: s.originalAmount,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    expiresAt: s.expiresAt,
    breakdown: s.breakdown.map((l) => ({
      type: l.type,
      amount: l.amount,
      status: l.status,
      referenceId: l.referenceId,
      referenceType: l.referenceType,
      details: l.details,
    })),
    ...(s.transactionId !== null && { transactionId: s.transactionId }),
    orderInfo: s.orderInfo,
  };
}
