/**
 * The payment hub's application layer, as the API and the composition root see it: its services and their views.
 * Import this file from outside application/payments (docs/conventions.md, "Modules").
 */
export * from './ipn-dispatcher.js';
export * from './ipn-notifications.js';
export * from './ipn-ports.js';
export * from './merchant-directory.js';
export * from './onboarding.js';
export * from './provider-callbacks.js';
export * from './provider-port.js';
export * from './provider-settlement.js';
export * from './sandbox-outcomes.js';
export * from './sandbox-providers.js';
export * from './sandbox-hub-callbacks.js';
export * from './payment-method-listing.js';
export * from './request-signatures.js';
export * from './saved-card-reactor.js';
export * from './saved-methods.js';
export * from './transaction-init.js';
export * from './transaction-listing.js';
export * from './transaction-timers.js';
export * from './transactions.js';
export * from './refunds.js';
export * from './refund-callbacks.js';
export * from './refund-reactor.js';
export * from './sandbox-refunds.js';
export * from './transaction-snapshot.js';
export * from './payment-sessions.js';
export * from './session-payment-link.js';
export * from './session-payment-reactor.js';
export * from './session-timers.js';

import type { IpnNotifications } from './ipn-notifications.js';
import type { PaymentMerchantDirectory } from './merchant-directory.js';
import type { PaymentOnboarding } from './onboarding.js';
import type { PaymentMethodListing } from './payment-method-listing.js';
import type { ProviderCallbacks } from './provider-callbacks.js';
import type { RequestSignatures } from './request-signatures.js';
import type { SandboxProviders } from './sandbox-providers.js';
import type { SavedPaymentMethods } from './saved-methods.js';
import type { TransactionListing } from './transaction-listing.js';
import type { TransactionService } from './transactions.js';
import type { RefundCallbacks } from './refund-callbacks.js';
import type { RefundService } from './refunds.js';
import type { TransactionSnapshots } from './transaction-snapshot.js';
import type { PaymentSessionService } from './payment-sessions.js';

/** The hub's services, as its module builds them (infrastructure/payments) and its API uses them (api/payments). */
export interface PaymentsServices {
  onboarding: PaymentOnboarding;
  directory: PaymentMerchantDirectory;
  signatures: RequestSignatures;
  transactions: TransactionService;
  paymentMethods: PaymentMethodListing;
  providerCallbacks: ProviderCallbacks;
  /** The sandbox providers, where they run: absent in production unless SANDBOXES_ALLOWED names them. */
  sandbox?: SandboxProviders;
  savedMethods: SavedPaymentMethods;
  /** The operators' list, over a read model: absent where there is no database (the fast app). */
  transactionListing?: TransactionListing;
  /** The operators' view of the IPN outbox (docs/ipn.md): absent where there is no database (the fast app). */
  ipn?: IpnNotifications;
  /** Refund requests and snapshots, and the providers' refund results (docs/payments-refunds.md). */
  refunds: RefundService;
  refundCallbacks: RefundCallbacks;
  snapshots: TransactionSnapshots;
  /** Payment sessions of the centralized flow (docs/payments-sessions.md). */
  sessions: PaymentSessionService;
}

// The domain's vocabulary the interfaces need reaches them through this file: api/ imports application/ only.
export * from '../../domain/payments/index.js';
