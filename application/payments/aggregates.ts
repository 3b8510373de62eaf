/**
 * The payment hub's aggregates, as the write engine names them (application/shared/aggregate.ts;
 * docs/event-store.md, "The write engine"), with the guard claims every command of theirs carries: a merchant's key
 * lookups, a new transaction's orderId and referenceId, a payment session's orderId+referenceId pair.
 */
import { createHash } from 'node:crypto';
import {
  apiKeyLookupEventFor,
  paymentMerchantDecider,
  paymentSessionDecider,
  paymentsDecoders,
  paymentsError,
  paymentsEventDecoder,
  refundLedgerDecider,
  streams,
  transactionDecider,
  userPaymentMethodsDecider,
  type PaymentMerchantEvent,
  type PaymentSessionEvent,
  type TransactionEvent,
} from '../../domain/payments/index.js';
import { aggregate, type AggregateDeps, type GuardClaim, type SideWrite } from '../shared/aggregate.js';
import { transactionClaims } from './transaction-request.js';

/** Whose saved methods: a host-app user at a merchant. */
export interface UserMethodsId {
  merchantCode: string;
  userId: string;
}

/** The stream of a user's saved methods at a merchant: any user id makes a short, safe stream name. */
export const userMethodsStream = (merchantCode: string, userId: string) =>
  streams.userMethods(createHash('sha256').update(`${merchantCode}\n${userId}`, 'utf8').digest('hex'));

/** The guard stream of a merchant's orderId+referenceId pair for sessions. */
export const sessionOrderStream = (merchantCode: string, orderId: string, referenceId: string) =>
  streams.paymentSessionOrder(
    createHash('sha256').update(`${merchantCode}\n${orderId}\n${referenceId}`, 'utf8').digest('hex'),
  );

export function paymentsAggregates(deps: AggregateDeps) {
  const eventDecoder = paymentsEventDecoder;
  return {
    /** A payment merchant: a paymentApiKey's lookup stream is claimed with its issue and revoked first. */
    merchant: aggregate(
      {
        decider: paymentMerchantDecider,
        stream: streams.merchant,
        decoder: paymentsDecoders.merchant,
        eventDecoder,
        claims: (decided) => decided.flatMap(lookupClaim),
        sideWrites: (decided) => decided.flatMap(lookupRevocation),
      },
      deps,
    ),
    /** A transaction: a new one (init or snapshot) claims its orderId, then its referenceId, per merchant. */
    transaction: aggregate(
      {
        decider: transactionDecider,
        stream: streams.transaction,
        decoder: paymentsDecoders.transaction,
        eventDecoder,
        claims: (decided) => decided.flatMap(newTransactionClaims),
        // Racing writers of one transaction: each retry re-decides on the winner's state, so the losers are refused.
        maxAttempts: 20,
      },
      deps,
    ),
    /** A transaction's refund ledger: every refund decision of it is made on this stream's version. */
    refunds: aggregate(
      {
        decider: refundLedgerDecider,
        stream: streams.refunds,
        decoder: paymentsDecoders.refunds,
        eventDecoder,
        // Racing refunds of one transaction: each loser re-decides on the winner's ledger; enough rounds for a burst.
        maxAttempts: 64,
      },
      deps,
    ),
    userMethods: aggregate(
      {
        decider: userPaymentMethodsDecider,
        stream: (id: UserMethodsId) => userMethodsStream(id.merchantCode, id.userId),
        decoder: paymentsDecoders.userMethods,
        eventDecoder,
      },
      deps,
    ),
    /** A payment session: a created one claims its orderId+referenceId pair for the merchant (lost: 409 4091). */
    paymentSession: aggregate(
      {
        decider: paymentSessionDecider,
        stream: streams.paymentSession,
        decoder: paymentsDecoders.paymentSession,
        eventDecoder,
        claims: (decided) => decided.flatMap(pairClaim),
        // Racing writers of one session (a cancel, the timer, an init, the process manager): each retry re-decides on
        // the winner's state.
        maxAttempts: 20,
      },
      deps,
    ),
  };
}

function lookupClaim(event: PaymentMerchantEvent): GuardClaim[] {
  const lookup = apiKeyLookupEventFor(event);
  if (lookup?.event.type !== 'PaymentApiKeyClaimed') return [];
  return [
    {
      streamName: streams.apiKey(lookup.keyDigest),
      event: lookup.event,
      lost: () => new Error('two paymentApiKeys have the same sha256'),
      idName: `PaymentApiKeyClaimed:${lookup.keyDigest}`,
    },
  ];
}

/** A revocation reaches the lookup first: a partial write leaves the key unusable, never usable but revoked. */
function lookupRevocation(event: PaymentMerchantEvent): SideWrite[] {
  const lookup = apiKeyLookupEventFor(event);
  if (lookup?.event.type !== 'PaymentApiKeyLookupRevoked') return [];
  return [
    {
      streamName: streams.apiKey(lookup.keyDigest),
      event: lookup.event,
      expectedVersion: 'stream_exists',
      placement: 'before',
      idName: `PaymentApiKeyLookupRevoked:${lookup.keyDigest}`,
    },
  ];
}

const newTransactionClaims = (e: TransactionEvent): GuardClaim[] =>
  e.type === 'TransactionInitiated' || e.type === 'TransactionSnapshotRecorded' ? transactionClaims(e.data) : [];

function pairClaim(e: PaymentSessionEvent): GuardClaim[] {
  if (e.type !== 'PaymentSessionCreated') return [];
  const d = e.data;
  return [
    {
      streamName: sessionOrderStream(d.merchantCode, d.orderId, d.referenceId),
      event: {
        type: 'PaymentSessionOrderClaimed',
        data: {
          merchantCode: d.merchantCode,
          orderId: d.orderId,
          referenceId: d.referenceId,
          paymentSessionId: d.paymentSessionId,
          claimedAt: d.createdAt,
        },
      },
      lost: () =>
        paymentsError(
          'DUPLICATE_PAYMENT_SESSION',
          `orderId ${d.orderId} with referenceId ${d.referenceId} has a session`,
          {
            field: 'referenceId',
            orderId: d.orderId,
            referenceId: d.referenceId,
          },
        ),
      // A claim whose session was never written (a partial write) is taken over.
      claimant: (recorded) =>
        streams.paymentSession(paymentsDecoders.paymentSessionOrder.decode(recorded).data.paymentSessionId),
    },
  ];
}

export type PaymentsAggregates = ReturnType<typeof paymentsAggregates>;
