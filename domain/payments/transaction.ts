/**
 * A payment transaction (stream transaction-<uuid>): the seed's state machine with compare-and-set transitions
 * (docs/payments.md, "States"). PENDING → PROCESSING → HOLDING or COMPLETED; FAILED; CANCELLED; a hold that expires
 * ends CANCELLED or TIMEOUT. Each transition is decided on the state its stream holds; two racing commands are
 * serialised by the stream's expected version, so exactly one outcome wins and the others are refused here.
 */
import type { Decider } from '../shared/decider.js';
import { paymentsError } from './errors.js';
import type { TransactionEvent } from './events.js';
import {
  recordedInstrument,
  type SavedCard,
  type TransactionDetails,
  type TransactionPaymentDetails,
} from './transaction-details.js';
import { decideTransactionSnapshot, type RecordTransactionSnapshot } from './transaction-snapshot.js';

export const transactionStatuses = [
  'PENDING',
  'PROCESSING',
  'HOLDING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMEOUT',
] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];

export type Transaction = TransactionDetails & {
  readonly status: TransactionStatus;
  readonly providerTransactionId: string | null;
  readonly providerInvoiceId: string | null;
  /** Where the payer goes to pay (the provider's page), once a provider took the payment. */
  readonly redirectUrl: string | null;
  readonly payment: TransactionPaymentDetails | null;
  readonly holdExpiresAt: string | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  /** How the outcome was carried out at the provider (capture or void), once it was. */
  readonly settlement: { readonly action: 'CAPTURE' | 'VOID'; readonly providerReference: string } | null;
  /** The card the payer chose to save at this payment (saved by saved-methods.ts), once authorized. */
  readonly savedCard: SavedCard | null;
  readonly updatedAt: string;
};

export type TransactionState = { readonly status: 'NONE' } | Transaction;

/** The terminal a merchant backend's key names: only it may act on its transactions. */
export interface TransactionCaller {
  readonly merchantCode: string;
  readonly terminalId: string;
}

/** What a provider answers when it takes a payment. */
export interface ProviderSession {
  readonly providerTransactionId: string;
  readonly providerInvoiceId: string | null;
  readonly redirectUrl: string | null;
}

export type TransactionCommand =
  /** With `provider`: the provider took it at once (PENDING → PROCESSING in the same decision). */
  | { type: 'InitiateTransaction'; details: TransactionDetails; provider?: ProviderSession; now: string }
  | ({ type: 'StartProcessing'; now: string } & ProviderSession)
  /**
   * The provider authorized: hold or capture, as the transaction's skipHolding says. `savedCard`: the payer chose to
   * save the card (kept only where the transaction is tokenizable).
   */
  | {
      type: 'RecordAuthorization';
      payment: TransactionPaymentDetails;
      holdExpiresAt: string;
      savedCard?: SavedCard;
      now: string;
    }
  | { type: 'RecordDecline'; errorCode: string; errorMessage: string; now: string }
  | { type: 'ConfirmTransaction'; caller: TransactionCaller; now: string }
  | {
      type: 'CancelTransaction';
      caller: TransactionCaller;
      reason: string | null;
      requestedBy: string | null;
      now: string;
    }
  /** The hold-timeout sweep: `endStatus` as configured (CANCELLED, or TIMEOUT). */
  | { type: 'ExpireHold'; endStatus: 'CANCELLED' | 'TIMEOUT'; now: string }
  /** No result by expiresAt: the payment is abandoned (FAILED). */
  | { type: 'AbandonTransaction'; now: string }
  /** The provider captured a confirmed hold, or voided a cancelled payment. */
  | { type: 'RecordProviderSettlement'; action: 'CAPTURE' | 'VOID'; providerReference: string; now: string }
  /** An external system's payment result (transaction-snapshot.ts): created in its end state. */
  | RecordTransactionSnapshot;

function existing(state: TransactionState): Transaction {
  if (state.status === 'NONE') throw paymentsError('TRANSACTION_NOT_FOUND', 'transaction not found');
  return state;
}

function owned(state: TransactionState, caller: TransactionCaller): Transaction {
  const t = existing(state);
  if (t.merchantCode !== caller.merchantCode || t.terminalId !== caller.terminalId)
    throw paymentsError('TRANSACTION_NOT_OWNED', 'the transaction does not belong to the terminal of this key');
  return t;
}

function notProcessable(t: Transaction, what: string) {
  return paymentsError('TRANSACTION_NOT_PROCESSABLE', `a ${what} cannot apply to a ${t.status} transaction`, {
    status: t.status,
  });
}

function processing(transactionId: string, p: ProviderSession, now: string): TransactionEvent {
  return {
    type: 'TransactionProcessing',
    data: {
      transactionId,
      providerTransactionId: p.providerTransactionId,
      providerInvoiceId: p.providerInvoiceId,
      redirectUrl: p.redirectUrl,
      processingAt: now,
    },
  };
}

const uncaptured: readonly TransactionStatus[] = ['PENDING', 'PROCESSING', 'HOLDING'];

function decide(command: TransactionCommand, state: TransactionState): TransactionEvent[] {
  switch (command.type) {
    case 'InitiateTransaction': {
      if (state.status !== 'NONE')
        throw paymentsError('TRANSACTION_EXISTS', `transaction ${command.details.transactionId} exists`);
      const initiated: TransactionEvent = { type: 'TransactionInitiated', data: command.details };
      if (!command.provider) return [initiated];
      return [initiated, processing(command.details.transactionId, command.provider, command.now)];
    }

    case 'StartProcessing': {
      const t = existing(state);
      if (t.status === 'PROCESSING' && t.providerTransactionId === command.providerTransactionId) return [];
      if (t.status !== 'PENDING') throw notProcessable(t, 'provider start');
      return [processing(t.transactionId, command, command.now)];
    }

    case 'RecordAuthorization': {
      const t = existing(state);
      if (t.status !== 'PROCESSING') throw notProcessable(t, 'provider authorization');
      const { transactionId } = t;
      // A token the payer was not offered to save (not a host-app user, a saved card already, no tokenization) is
      // not kept: the provider's say-so does not make a saved method.
      const saved = command.savedCard && t.tokenizable && t.payer.kind === 'MINIAPP_USER' ? command.savedCard : null;
      const savedCard = saved ? { savedCard: saved } : {};
      // Wallets and QR name no instrument (the seed), whatever the provider reported.
      const payment = recordedInstrument(t.paymentMethod.type, command.payment);
      if (t.skipHolding)
        return [
          {
            type: 'TransactionCompleted',
            data: {
              transactionId,
              via: 'AUTO_CAPTURE',
              payment,
              completedAt: command.now,
              ...savedCard,
            },
          },
        ];
      return [
        {
          type: 'TransactionHeld',
          data: {
            transactionId,
            payment,
            holdExpiresAt: command.holdExpiresAt,
            heldAt: command.now,
            ...savedCard,
          },
        },
      ];
    }

    case 'RecordDecline': {
      const t = existing(state);
      if (t.status !== 'PENDING' && t.status !== 'PROCESSING') throw notProcessable(t, 'provider decline');
      return [
        {
          type: 'TransactionFailed',
          data: {
            transactionId: t.transactionId,
            reason: 'DECLINED',
            errorCode: command.errorCode,
            errorMessage: command.errorMessage,
            failedAt: command.now,
          },
        },
      ];
    }

    case 'ConfirmTransaction': {
      const t = owned(state, command.caller);
      if (t.status !== 'HOLDING')
        throw paymentsError('TRANSACTION_NOT_CONFIRMABLE', `a ${t.status} transaction cannot be confirmed`, {
          status: t.status,
        });
      return [
        {
          type: 'TransactionCompleted',
          data: { transactionId: t.transactionId, via: 'CONFIRM', payment: null, completedAt: command.now },
        },
      ];
    }

    case 'CancelTransaction': {
      const t = owned(state, command.caller);
      if (!uncaptured.includes(t.status))
        throw paymentsError('TRANSACTION_NOT_CANCELLABLE', `a ${t.status} transaction cannot be cancelled`, {
          status: t.status,
        });
      return [
        {
          type: 'TransactionCancelled',
          data: {
            transactionId: t.transactionId,
            by: 'MERCHANT',
            status: 'CANCELLED',
            reason: command.reason,
            requestedBy: command.requestedBy,
            cancelledAt: command.now,
          },
        },
      ];
    }

    case 'ExpireHold': {
      // A timer that fires late or twice finds the transaction moved on: nothing to do.
      if (state.status !== 'HOLDING' || Date.parse(command.now) < Date.parse(state.holdExpiresAt!)) return [];
      return [
        {
          type: 'TransactionCancelled',
          data: {
            transactionId: state.transactionId,
            by: 'HOLD_TIMEOUT',
            status: command.endStatus,
            reason: 'hold expired',
            requestedBy: null,
            cancelledAt: command.now,
          },
        },
      ];
    }

    case 'RecordProviderSettlement':
      return decideSettlement(command, state);

    case 'RecordTransactionSnapshot':
      return decideTransactionSnapshot(command, state);

    case 'AbandonTransaction': {
      if (state.status !== 'PENDING' && state.status !== 'PROCESSING') return [];
      if (Date.parse(command.now) < Date.parse(state.expiresAt)) return [];
      return [
        {
          type: 'TransactionFailed',
          data: {
            transactionId: state.transactionId,
            reason: 'ABANDONED',
            errorCode: 'ABANDONED',
            errorMessage: 'no payment result before the transaction expired',
            failedAt: command.now,
          },
        },
      ];
    }
  }
}

function decideSettlement(
  command: Extract<TransactionCommand, { type: 'RecordProviderSettlement' }>,
  state: TransactionState,
): TransactionEvent[] {
  const t = existing(state);
  // A repeat (the reactor redelivered) records nothing.
  if (t.settlement?.action === command.action) return [];
  const fits =
    command.action === 'CAPTURE' ? t.status === 'COMPLETED' : t.status === 'CANCELLED' || t.status === 'TIMEOUT';
  if (!fits || t.settlement) throw notProcessable(t, `provider ${command.action.toLowerCase()}`);
  return [
    {
      type: 'TransactionSettledAtProvider',
      data: {
        transactionId: t.transactionId,
        action: command.action,
        providerReference: command.providerReference,
        settledAt: command.now,
      },
    },
  ];
}

function evolve(state: TransactionState, event: TransactionEvent): TransactionState {
  if (event.type === 'TransactionSnapshotRecorded') return snapshotTransaction(event);
  if (event.type === 'TransactionInitiated')
    return {
      ...event.data,
      status: 'PENDING',
      providerTransactionId: null,
      providerInvoiceId: null,
      redirectUrl: null,
      payment: null,
      holdExpiresAt: null,
      errorCode: null,
      errorMessage: null,
      settlement: null,
      savedCard: null,
      updatedAt: event.data.createdAt,
    };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'TransactionProcessing':
      return {
        ...state,
        status: 'PROCESSING',
        providerTransactionId: event.data.providerTransactionId,
        providerInvoiceId: event.data.providerInvoiceId,
        redirectUrl: event.data.redirectUrl ?? null,
        updatedAt: event.data.processingAt,
      };
    case 'TransactionHeld':
      return {
        ...state,
        status: 'HOLDING',
        // Also for events recorded before the rule (docs/ipn.md): a wallet or QR payment names no instrument.
        payment: recordedInstrument(state.paymentMethod.type, event.data.payment),
        holdExpiresAt: event.data.holdExpiresAt,
        savedCard: event.data.savedCard ?? null,
        updatedAt: event.data.heldAt,
      };
    case 'TransactionCompleted':
      return {
        ...state,
        status: 'COMPLETED',
        payment: recordedInstrument(state.paymentMethod.type, event.data.payment ?? state.payment),
        savedCard: event.data.savedCard ?? state.savedCard,
        updatedAt: event.data.completedAt,
      };
    case 'TransactionFailed':
      return {
        ...state,
        status: 'FAILED',
        errorCode: event.data.errorCode,
        errorMessage: event.data.errorMessage,
        updatedAt: event.data.failedAt,
      };
    case 'TransactionCancelled':
      return { ...state, status: event.data.status, updatedAt: event.data.cancelledAt };
    case 'TransactionSettledAtProvider':
      // Not a status change: updatedAt stays the outcome's.
      return { ...state, settlement: { action: event.data.action, providerReference: event.data.providerReference } };
  }
}

/** A transaction a snapshot created: its end state at once, its updatedAt the hub's record time. */
function snapshotTransaction(event: Extract<TransactionEvent, { type: 'TransactionSnapshotRecorded' }>): Transaction {
  const { status, providerTransactionId, processedAt: _processedAt, errorCode, errorMessage, ...details } = event.data;
  return {
    ...details,
    status,
    providerTransactionId,
    providerInvoiceId: null,
    redirectUrl: null,
    payment: null,
    holdExpiresAt: null,
    errorCode,
    errorMessage,
    settlement: null,
    savedCard: null,
    updatedAt: details.createdAt,
  };
}

export const transactionDecider: Decider<TransactionCommand, TransactionState, TransactionEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
