/**
 * The provider port (docs/payments.md, "Providers"): how the hub hands a payment to a provider, and how a provider's
 * result reaches it (a signed callback, provider-callbacks.ts). The sandbox providers implement it
 * (sandbox-providers.ts); a real provider's adapter replaces one by implementing the same port under its code.
 */
import type { ProviderSession } from '../../domain/payments/index.js';

/** What a provider is given to take a payment. */
export interface ProviderPayment {
  transactionId: string;
  providerCode: string;
  amount: number;
  currency: string;
  orderId: string;
  description: string;
}

export interface PaymentProviderPort {
  /**
   * Takes a new payment: the provider's ids and where the payer goes (its hosted page), if anywhere. Called before the
   * transaction is appended; a provider whose start has effects must make them idempotent by transactionId.
   */
  start(payment: ProviderPayment): Promise<ProviderSession>;
  /**
   * Carries out an outcome at the provider: CAPTURE a confirmed hold, VOID the uncaptured payment of a cancelled
   * transaction. Called at least once per outcome (a reactor): idempotent by providerTransactionId and action. Answers
   * the provider's reference of the operation.
   */
  settle(settlement: ProviderSettlement): Promise<{ providerReference: string }>;
}

export interface ProviderSettlement {
  transactionId: string;
  providerCode: string;
  providerTransactionId: string;
  action: 'CAPTURE' | 'VOID';
  amount: number;
  currency: string;
}

/** Posts a provider's signed callback to the hub over HTTP (infrastructure/payments/http-callback-sender.ts). */
export interface CallbackSender {
  post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }>;
}
