/**
 * The provider port (docs/payments.md, "Providers"): how the hub hands a payment to a provider, and how a provider's
 * result reaches it (a signed callback, provider-callbacks.ts). The sandbox providers implement it
 * (sandbox-providers.ts); a real provider's adapter replaces one by implementing the same port under its code.
 */
import type { ProviderSession, TransactionPaymentDetails } from '../../domain/payments/index.js';

/** What a provider is given to take a payment. */
export interface ProviderPayment {
  transactionId: string;
  providerCode: string;
  amount: number;
  currency: string;
  orderId: string;
  description: string;
  /** Card payments: 3D (a 3-D Secure step) or 2D (none). Absent: 3D. */
  cardType?: '2D' | '3D';
  /** Paid with a saved card (init's userPaymentMethodId): the provider's token, decrypted, and the masked card. */
  savedCard?: { providerToken: string; cardNo: string };
}

/** A provider's answer to a direct charge of a saved card. */
export type SavedCardCharge =
  | { result: 'AUTHORIZED'; payment: TransactionPaymentDetails }
  | { result: 'DECLINED'; errorCode: string; errorMessage: string };

/**
 * What a provider answers, with the payment, when the payer chose to save the card: its token (a credential: the hub
 * keeps it encrypted), its fingerprint of the card, and the card only masked.
 */
export interface CardTokenization {
  providerToken: string;
  fingerprint: string;
  cardNo: string;
  cardBrand: string;
  expiry: string | null;
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
  /**
   * Charges a saved card without the payer (a 2D payment with a saved card: no page), after the transaction was
   * appended PROCESSING with the session `start` answered (redirectUrl null). Idempotent by transactionId.
   */
  chargeSavedCard(payment: ProviderPayment & { providerTransactionId: string }): Promise<SavedCardCharge>;
  /**
   * Hands a refund to the provider (docs/payments-refunds.md, "At the provider"): it answers that it took it, with its
   * refund id, and reports the final result later by a signed refund callback. Called at least once per refund (the
   * refund reactor): idempotent by refundId.
   */
  refund(refund: ProviderRefund): Promise<{ providerRefundId: string }>;
}

export interface ProviderRefund {
  refundId: string;
  transactionId: string;
  providerCode: string;
  providerTransactionId: string | null;
  amount: number;
  currency: string;
  reason: string | null;
}

export interface ProviderSettlement {
  transactionId: string;
  providerCode: string;
  providerTransactionId: string;
  action: 'CAPTURE' | 'VOID';
  amount: number;
  currency: string;
}

/**
 * Delivers a sandbox provider's signed callback to the hub (docs/payments-sandbox.md, "Callbacks"): `payment` to
 * /payment-providers/v1/{providerCode}/callbacks, `refund` to …/refund-callbacks. Where it goes is configuration, never
 * a request: over HTTP to PAYMENTS_SANDBOX_CALLBACK_BASE_URL through the outbound client
 * (infrastructure/payments/http-callback-sender.ts), or, unset, in this process (sandbox-hub-callbacks.ts). Answers
 * the hub's status (200 applied, 409 another result holds, 4xx refused) and a short body.
 */
export interface CallbackSender {
  send(callback: {
    kind: 'payment' | 'refund';
    providerCode: string;
    /** The callback's JSON, exactly as signed. */
    body: string;
    /** The provider's signature over `body` (X-Provider-Signature). */
    signature: string;
  }): Promise<{ status: number; body: string }>;
}
