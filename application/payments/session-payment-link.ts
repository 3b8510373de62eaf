/**
 * Init payment with `paymentSessionId` (docs/payments-sessions.md, "Paying the session"): the session must be the
 * caller's, PENDING, unexpired, and the init must pay exactly its PAYMENT line; the session's move to PROCESSING is
 * written in the transaction's own append, expecting the revision the check read. A cancel or an expiry that wins the
 * race makes that append conflict: nothing is recorded and the init is refused (4001) as the session now says.
 */
import {
  paymentSessionDecider,
  paymentsError,
  streams,
  type PaymentSessionState,
} from '../../domain/payments/index.js';
import { expectedVersionOf } from '../shared/command-handler.js';
import type { SideWrite } from '../shared/guard-claims.js';
import type { CommandContext } from '../shared/command-context.js';
import { WrongExpectedVersionError, type EventStore } from '../shared/event-store.js';
import { findIdempotencyRecord } from '../shared/idempotency.js';
import type { PaymentCaller } from './merchant-directory.js';
import type { PaymentSessionService } from './payment-sessions.js';

export interface SessionPaymentFields {
  orderId: string;
  referenceId: string;
  amount: number;
  currency: string;
  method: string;
  provider: string;
}

export interface SessionPaymentLink {
  /** The session's PROCESSING event, as a side write of the transaction's append at `now` (its createdAt). */
  sideWrite(transactionId: string, now: string): SideWrite;
  /** Turns the append's conflict on the session's stream into the session's refusal. */
  refusal(error: unknown): Promise<unknown>;
}

/**
 * Checks the session now (before any provider is called) and answers how to write the link; null for a resend under
 * a used X-Request-ID (its session moved on because of the first time: the command handler answers it from the key).
 */
export async function sessionPaymentLink(
  sessions: PaymentSessionService,
  store: EventStore,
  context: CommandContext,
  caller: PaymentCaller,
  paymentSessionId: string,
  fields: SessionPaymentFields,
  now: string,
): Promise<SessionPaymentLink | null> {
  const placeholder = '00000000-0000-0000-0000-000000000000';
  const start = (transactionId: string, at: string, state: PaymentSessionState) =>
    paymentSessionDecider.decide({ type: 'StartSessionPayment', caller, transactionId, ...fields, now: at }, state);
  // Refused here, the provider is never asked to start a payment.
  const checked = await sessions.loadState(paymentSessionId);
  try {
    start(placeholder, now, checked.state);
  } catch (refused) {
    if (context.idempotency && (await findIdempotencyRecord(store, context.idempotency))) return null;
    throw refused;
  }
  const streamName = streams.paymentSession(paymentSessionId);
  return {
    sideWrite: (transactionId, at) => ({
      streamName,
      // On the state the check read: the append expects its revision, so a session moved since makes it conflict.
      event: start(transactionId, at, checked.state),
      expectedVersion: expectedVersionOf(checked.revision),
      placement: 'after',
    }),
    async refusal(error) {
      if (!(error instanceof WrongExpectedVersionError) || error.streamName !== streamName) return error;
      try {
        start(placeholder, now, (await sessions.loadState(paymentSessionId)).state);
      } catch (refused) {
        return refused;
      }
      return paymentsError('INVALID_PAYMENT_REQUEST', 'paymentSessionId: the session changed meanwhile; send again', {
        field: 'paymentSessionId',
      });
    },
  };
}
