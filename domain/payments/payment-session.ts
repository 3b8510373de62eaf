/**
 * A payment session of the centralized flow (stream paymentSession-<uuid>; docs/payments-sessions.md, "States"):
 * PENDING → PROCESSING (init payment named it) → COMPLETED (its transaction completed) or CANCELLED (its transaction
 * failed or was cancelled); PENDING → CANCELLED (the backend) or EXPIRED (the timer at expiresAt). A session whose
 * vouchers and points cover the order is COMPLETED at creation. The breakdown lines move with the session.
 * Transitions are decided on the stream's state and appended at its revision: of racing ones exactly one wins.
 */
import type { Decider } from '../shared/decider.js';
import { paymentsError } from './errors.js';
import type { PaymentSessionEvent } from './events.js';
import type {
  BreakdownLine,
  BreakdownLineStatus,
  PaymentSessionDetails,
  SessionPaymentFacts,
  SettledLine,
} from './payment-session-details.js';
import type { OrderInfo } from './transaction-details.js';

export const paymentSessionStatuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'EXPIRED'] as const;
export type PaymentSessionStatus = (typeof paymentSessionStatuses)[number];

export type PaymentSession = PaymentSessionDetails & {
  readonly status: PaymentSessionStatus;
  /** The transaction paying the PAYMENT line, once init named the session. */
  readonly transactionId: string | null;
  readonly payment: SessionPaymentFacts | null;
  /** How a CANCELLED session ended. */
  readonly cancelledBy: 'MERCHANT' | 'PAYMENT_FAILED' | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly updatedAt: string;
};

export type PaymentSessionState = { readonly status: 'NONE' } | PaymentSession;

/** The key's terminal: only it may pay, read or cancel its sessions. */
export interface SessionCaller {
  readonly merchantCode: string;
  readonly terminalId: string;
}

export type PaymentSessionCommand =
  | {
      type: 'CreatePaymentSession';
      session: Omit<PaymentSessionDetails, 'amount' | 'breakdown' | 'createdAt'> & { lines: readonly SettledLine[] };
      now: string;
    }
  /** Init payment with paymentSessionId: the transaction must pay exactly the PAYMENT line of the order. */
  | {
      type: 'StartSessionPayment';
      caller: SessionCaller;
      transactionId: string;
      orderId: string;
      referenceId: string;
      amount: number;
      currency: string;
      method: string;
      provider: string;
      now: string;
    }
  | { type: 'CompleteSessionPayment'; transactionId: string; payment: SessionPaymentFacts; now: string }
  | { type: 'FailSessionPayment'; transactionId: string; errorCode: string; errorMessage: string; now: string }
  | {
      type: 'CancelPaymentSession';
      caller: SessionCaller;
      reason: string | null;
      requestedBy: string | null;
      now: string;
    }
  | { type: 'ExpirePaymentSession'; now: string };

/** A session lives at most 7 days (a voucher reservation is not held longer for it). */
const maxLifetimeMs = 7 * 86_400_000;

const notFound = () => paymentsError('PAYMENT_SESSION_NOT_FOUND', 'payment session not found');

/** Another terminal's session is answered as an unknown one (docs/payments-sessions.md, "Ownership"). */
function owned(state: PaymentSessionState, caller: SessionCaller): PaymentSession {
  if (state.status === 'NONE' || state.merchantCode !== caller.merchantCode || state.terminalId !== caller.terminalId)
    throw notFound();
  return state;
}

const refusedLink = (message: string) =>
  paymentsError('INVALID_PAYMENT_REQUEST', `paymentSessionId: ${message}`, { field: 'paymentSessionId' });

function decideCreate(
  command: Extract<PaymentSessionCommand, { type: 'CreatePaymentSession' }>,
  state: PaymentSessionState,
): PaymentSessionEvent[] {
  const { lines, ...s } = command.session;
  if (state.status !== 'NONE')
    throw paymentsError('PAYMENT_SESSION_EXISTS', `payment session ${s.paymentSessionId} exists`);
  if (Date.parse(s.expiresAt) <= Date.parse(command.now))
    throw paymentsError('INVALID_PAYMENT_REQUEST', 'expiresAt: must be in the future', { field: 'expiresAt' });
  if (Date.parse(s.expiresAt) > Date.parse(command.now) + maxLifetimeMs)
    throw paymentsError('INVALID_PAYMENT_REQUEST', 'expiresAt: must be at most 7 days ahead', { field: 'expiresAt' });
  const settled = lines.reduce((sum, l) => sum + l.amount, 0);
  const amount = s.originalAmount - settled;
  if (amount < 0)
    throw paymentsError(
      'INVALID_PAYMENT_REQUEST',
      `breakdown: the lines (${settled}) exceed originalAmount (${s.originalAmount})`,
      { field: 'breakdown' },
    );
  const breakdown: BreakdownLine[] = lines.map((l) => ({ ...l, status: 'PENDING' }));
  // Paid by vouchers and points alone: no PAYMENT line, no transaction (completed below).
  if (amount > 0)
    breakdown.push({
      type: 'PAYMENT',
      amount,
      status: 'PENDING',
      referenceId: null,
      referenceType: null,
      details: null,
    });
  const created: PaymentSessionEvent = {
    type: 'PaymentSessionCreated',
    data: { ...s, amount, breakdown, createdAt: command.now },
  };
  if (amount > 0) return [created];
  return [
    created,
    {
      type: 'PaymentSessionCompleted',
      data: { paymentSessionId: s.paymentSessionId, transactionId: null, payment: null, completedAt: command.now },
    },
  ];
}

function decide(command: PaymentSessionCommand, state: PaymentSessionState): PaymentSessionEvent[] {
  switch (command.type) {
    case 'CreatePaymentSession':
      return decideCreate(command, state);

    case 'StartSessionPayment': {
      if (state.status === 'NONE' || state.merchantCode !== command.caller.merchantCode)
        throw refusedLink('no such payment session');
      if (state.terminalId !== command.caller.terminalId) throw refusedLink('no such payment session');
      if (state.status !== 'PENDING') throw refusedLink(`the session is ${state.status}`);
      if (Date.parse(command.now) >= Date.parse(state.expiresAt)) throw refusedLink('the session expired');
      if (state.amount === 0) throw refusedLink('the session has nothing to pay');
      if (command.orderId !== state.orderId || command.referenceId !== state.referenceId)
        throw refusedLink("orderId and referenceId must be the session's");
      if (command.amount !== state.amount || command.currency !== state.currency)
        throw refusedLink(`amount and currency must be the session's PAYMENT part (${state.amount} ${state.currency})`);
      return [
        {
          type: 'PaymentSessionProcessing',
          data: {
            paymentSessionId: state.paymentSessionId,
            transactionId: command.transactionId,
            method: command.method,
            provider: command.provider,
            processingAt: command.now,
          },
        },
      ];
    }

    case 'CompleteSessionPayment': {
      // Only the outcome the session waits for; a repeat (the reactor redelivered) finds it done.
      if (state.status !== 'PROCESSING' || state.transactionId !== command.transactionId) return [];
      return [
        {
          type: 'PaymentSessionCompleted',
          data: {
            paymentSessionId: state.paymentSessionId,
            transactionId: command.transactionId,
            payment: command.payment,
            completedAt: command.now,
          },
        },
      ];
    }

    case 'FailSessionPayment': {
      if (state.status !== 'PROCESSING' || state.transactionId !== command.transactionId) return [];
      return [
        {
          type: 'PaymentSessionCancelled',
          data: {
            paymentSessionId: state.paymentSessionId,
            by: 'PAYMENT_FAILED',
            transactionId: command.transactionId,
            reason: 'the payment transaction failed or was cancelled',
            requestedBy: null,
            errorCode: command.errorCode,
            errorMessage: command.errorMessage,
            cancelledAt: command.now,
          },
        },
      ];
    }

    case 'CancelPaymentSession': {
      const s = owned(state, command.caller);
      if (s.status !== 'PENDING')
        throw paymentsError('PAYMENT_SESSION_NOT_CANCELLABLE', `a ${s.status} payment session cannot be cancelled`, {
          status: s.status,
        });
      return [
        {
          type: 'PaymentSessionCancelled',
          data: {
            paymentSessionId: s.paymentSessionId,
            by: 'MERCHANT',
            transactionId: null,
            reason: command.reason,
            requestedBy: command.requestedBy,
            errorCode: null,
            errorMessage: null,
            cancelledAt: command.now,
          },
        },
      ];
    }

    case 'ExpirePaymentSession': {
      // A timer that fires late, early or twice finds the session moved on (or not yet due): nothing to do.
      if (state.status !== 'PENDING' || Date.parse(command.now) < Date.parse(state.expiresAt)) return [];
      return [
        { type: 'PaymentSessionExpired', data: { paymentSessionId: state.paymentSessionId, expiredAt: command.now } },
      ];
    }
  }
}

/** Every line to `status`, the PAYMENT line to `payment` (its own outcome). */
function linesTo(
  lines: readonly BreakdownLine[],
  status: BreakdownLineStatus,
  payment: BreakdownLineStatus = status,
): BreakdownLine[] {
  return lines.map((l) => ({ ...l, status: l.type === 'PAYMENT' ? payment : status }));
}

function evolve(state: PaymentSessionState, event: PaymentSessionEvent): PaymentSessionState {
  if (event.type === 'PaymentSessionCreated')
    return {
      ...event.data,
      status: 'PENDING',
      transactionId: null,
      payment: null,
      cancelledBy: null,
      errorCode: null,
      errorMessage: null,
      updatedAt: event.data.createdAt,
    };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'PaymentSessionProcessing':
      return {
        ...state,
        status: 'PROCESSING',
        transactionId: event.data.transactionId,
        breakdown: state.breakdown.map((l) =>
          l.type === 'PAYMENT'
            ? {
                ...l,
                referenceId: event.data.transactionId,
                referenceType: 'TRANSACTION',
                details: { method: event.data.method, provider: event.data.provider },
              }
            : l,
        ),
        updatedAt: event.data.processingAt,
      };
    case 'PaymentSessionCompleted':
      return {
        ...state,
        status: 'COMPLETED',
        transactionId: event.data.transactionId,
        payment: event.data.payment,
        breakdown: linesTo(state.breakdown, 'SUCCESS'),
        updatedAt: event.data.completedAt,
      };
    case 'PaymentSessionCancelled':
      return {
        ...state,
        status: 'CANCELLED',
        cancelledBy: event.data.by,
        transactionId: event.data.transactionId ?? state.transactionId,
        errorCode: event.data.errorCode,
        errorMessage: event.data.errorMessage,
        breakdown: linesTo(state.breakdown, 'CANCELLED', event.data.by === 'PAYMENT_FAILED' ? 'FAILED' : 'CANCELLED'),
        updatedAt: event.data.cancelledAt,
      };
    case 'PaymentSessionExpired':
      return {
        ...state,
        status: 'EXPIRED',
        breakdown: linesTo(state.breakdown, 'CANCELLED'),
        updatedAt: event.data.expiredAt,
      };
  }
}

export const paymentSessionDecider: Decider<PaymentSessionCommand, PaymentSessionState, PaymentSessionEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/** The session's order info for its IPN (the backend's createdAt when orderInfo says none). */
export function sessionOrderInfo(s: PaymentSession): OrderInfo {
  return { ...(s.orderInfo ?? {}), orderCreatedAt: s.orderInfo?.orderCreatedAt ?? s.orderCreatedAt };
}
