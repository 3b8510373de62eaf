/**
 * The payment hub's one event decoder: every payments event type with its schema version, grouped by the stream
 * category that holds it. Everything that reads payments events reads them through it; writers stamp its current
 * versions. How to change an event's shape: docs/event-store.md#schema-versions-and-upcasting.
 */
import { eventDecoder, type EventDecoder, type EventSchemas } from '../shared/event-decoder.js';
import type {
  PaymentApiKeyLookupEvent,
  PaymentMerchantEvent,
  PaymentOrderEvent,
  PaymentReferenceEvent,
  PaymentSessionEvent,
  PaymentSessionOrderEvent,
  PaymentsEvent,
  RefundLedgerEvent,
  TransactionEvent,
  UserPaymentMethodsEvent,
} from './events.js';

const v1 = { version: 1 } as const;

const groups = {
  merchant: {
    PaymentMerchantOnboarded: v1,
    PaymentMerchantIpnChanged: v1,
    MerchantSecretKeyIssued: v1,
    TerminalAdded: v1,
    PaymentApiKeyIssued: v1,
    PaymentApiKeyRevoked: v1,
    PaymentMethodConfigured: v1,
  } satisfies EventSchemas<PaymentMerchantEvent>,
  apiKey: { PaymentApiKeyClaimed: v1, PaymentApiKeyLookupRevoked: v1 } satisfies EventSchemas<PaymentApiKeyLookupEvent>,
  order: { PaymentOrderClaimed: v1 } satisfies EventSchemas<PaymentOrderEvent>,
  reference: { PaymentReferenceClaimed: v1 } satisfies EventSchemas<PaymentReferenceEvent>,
  transaction: {
    TransactionInitiated: v1,
    TransactionProcessing: v1,
    TransactionHeld: v1,
    TransactionCompleted: v1,
    TransactionFailed: v1,
    TransactionCancelled: v1,
    TransactionSettledAtProvider: v1,
    TransactionSnapshotRecorded: v1,
  } satisfies EventSchemas<TransactionEvent>,
  userMethods: {
    UserPaymentMethodSaved: v1,
    UserPaymentMethodRemoved: v1,
  } satisfies EventSchemas<UserPaymentMethodsEvent>,
  refunds: {
    RefundRequested: v1,
    RefundProcessing: v1,
    RefundCompleted: v1,
    RefundFailed: v1,
    RefundSnapshotRecorded: v1,
  } satisfies EventSchemas<RefundLedgerEvent>,
  paymentSession: {
    PaymentSessionCreated: v1,
    PaymentSessionProcessing: v1,
    PaymentSessionCompleted: v1,
    PaymentSessionCancelled: v1,
    PaymentSessionExpired: v1,
  } satisfies EventSchemas<PaymentSessionEvent>,
  paymentSessionOrder: { PaymentSessionOrderClaimed: v1 } satisfies EventSchemas<PaymentSessionOrderEvent>,
};

export const paymentsEventSchemas: EventSchemas<PaymentsEvent> = {
  ...groups.merchant,
  ...groups.apiKey,
  ...groups.order,
  ...groups.reference,
  ...groups.transaction,
  ...groups.userMethods,
  ...groups.refunds,
  ...groups.paymentSession,
  ...groups.paymentSessionOrder,
};

export const paymentsEventDecoder: EventDecoder<PaymentsEvent> = eventDecoder(paymentsEventSchemas);

export const paymentsDecoders = {
  merchant: paymentsEventDecoder.only(groups.merchant),
  apiKey: paymentsEventDecoder.only(groups.apiKey),
  order: paymentsEventDecoder.only(groups.order),
  reference: paymentsEventDecoder.only(groups.reference),
  transaction: paymentsEventDecoder.only(groups.transaction),
  userMethods: paymentsEventDecoder.only(groups.userMethods),
  refunds: paymentsEventDecoder.only(groups.refunds),
  paymentSession: paymentsEventDecoder.only(groups.paymentSession),
  paymentSessionOrder: paymentsEventDecoder.only(groups.paymentSessionOrder),
};
