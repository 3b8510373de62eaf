/**
 * Payment sessions as merchant backends drive them (docs/payments-sessions.md): create (the orderId+referenceId pair
 * claimed once per merchant in the same append, guard stream paymentSessionOrder-<digest>), read, cancel, and the
 * commands of the session's timer and process manager. Every write runs through the write engine on
 * paymentSession-<uuid>; reads come from the stream (strongly consistent).
 */
import { randomUUID } from 'node:crypto';
import {
  paymentsDecoders,
  paymentsError,
  type OrderInfo,
  type PaymentSession,
  type PaymentSessionCommand,
  type PaymentSessionState,
  type SessionCaller,
  type SettledLine,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import { paymentsAggregates, sessionOrderStream } from './aggregates.js';

export { sessionOrderStream } from './aggregates.js';

/** The create body as the interface parsed it (amounts their integer part). */
export interface CreatePaymentSessionRequest {
  orderId: string;
  referenceId: string;
  originalAmount: number;
  currency: string;
  /** The backend's order creation time (Unix ms), as signed. */
  createdAt: number;
  expiresAt?: string;
  ttlSeconds?: number;
  orderInfo?: OrderInfo;
  breakdown: readonly SettledLine[];
}

/** How a cancel or a lookup names its session: paymentSessionId wins over the pair. */
export type PaymentSessionReference =
  { readonly paymentSessionId: string } | { readonly orderId: string; readonly referenceId: string };

export class PaymentSessionService {
  private readonly sessions;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      /** A session without expiresAt or ttlSeconds expires this long after creation. */
      defaultTtlSeconds: number;
    },
  ) {
    this.sessions = paymentsAggregates(deps).paymentSession;
  }

  async create(
    context: CommandContext,
    caller: SessionCaller,
    req: CreatePaymentSessionRequest,
  ): Promise<PaymentSession> {
    const paymentSessionId = randomUUID();
    const ttl = req.ttlSeconds ?? this.deps.defaultTtlSeconds;
    return this.run(
      context,
      paymentSessionId,
      (now) => ({
        type: 'CreatePaymentSession',
        session: {
          paymentSessionId,
          merchantCode: caller.merchantCode,
          terminalId: caller.terminalId,
          orderId: req.orderId,
          referenceId: req.referenceId,
          originalAmount: req.originalAmount,
          currency: req.currency,
          orderCreatedAt: req.createdAt,
          orderInfo: req.orderInfo ?? null,
          lines: req.breakdown,
          expiresAt: req.expiresAt ?? new Date(Date.parse(now) + ttl * 1000).toISOString(),
        },
        now,
      }),
      true,
    );
  }

  /** The session a lookup names, for the caller's terminal only (another's is not found). */
  async find(caller: SessionCaller, ref: PaymentSessionReference): Promise<PaymentSession> {
    const id = await this.resolve(caller, ref);
    const { state } = await this.loadState(id);
    if (state.status === 'NONE' || state.merchantCode !== caller.merchantCode || state.terminalId !== caller.terminalId)
      throw paymentsError('PAYMENT_SESSION_NOT_FOUND', 'payment session not found');
    return state;
  }

  async cancel(
    context: CommandContext,
    caller: SessionCaller,
    ref: PaymentSessionReference,
    input: { reason: string | null; requestedBy: string | null },
  ): Promise<PaymentSession> {
    const id = await this.resolve(caller, ref);
    return this.run(context, id, (now) => ({ type: 'CancelPaymentSession', caller, ...input, now }));
  }

  /** The expiry timer: EXPIRED when still PENDING at expiresAt; a no-op otherwise. */
  expire(context: CommandContext, paymentSessionId: string): Promise<PaymentSession> {
    return this.run(context, paymentSessionId, (now) => ({ type: 'ExpirePaymentSession', now }));
  }

  /** The session's transaction reached an outcome (the process manager): COMPLETED, or CANCELLED when it failed. */
  recordPaymentOutcome(
    context: CommandContext,
    paymentSessionId: string,
    command: (now: string) => PaymentSessionCommand,
  ): Promise<PaymentSession> {
    return this.run(context, paymentSessionId, command);
  }

  /** The session as its stream says, and the revision it ends at (-1: none). */
  async loadState(paymentSessionId: string): Promise<{ state: PaymentSessionState; revision: number }> {
    const { state, revision } = await this.sessions.load(paymentSessionId);
    return { state, revision };
  }

  async load(paymentSessionId: string): Promise<PaymentSession> {
    const { state } = await this.loadState(paymentSessionId);
    if (state.status === 'NONE') throw paymentsError('PAYMENT_SESSION_NOT_FOUND', 'payment session not found');
    return state;
  }

  private async resolve(caller: SessionCaller, ref: PaymentSessionReference): Promise<string> {
    if ('paymentSessionId' in ref) return ref.paymentSessionId;
    const claim = (
      await this.deps.store.readStream(sessionOrderStream(caller.merchantCode, ref.orderId, ref.referenceId))
    ).at(0);
    if (!claim) throw paymentsError('PAYMENT_SESSION_NOT_FOUND', 'no payment session has this orderId and referenceId');
    return paymentsDecoders.paymentSessionOrder.decode(claim).data.paymentSessionId;
  }

  private async run(
    context: CommandContext,
    paymentSessionId: string,
    command: (now: string, state: PaymentSessionState) => PaymentSessionCommand,
    /** A session whose random id was just made: no stream to read (its pair's claim is the aggregate's). */
    fresh = false,
  ): Promise<PaymentSession> {
    const { state } = await this.sessions.handle(context, paymentSessionId, command, fresh ? { recorded: [] } : {});
    if (state.status === 'NONE') throw paymentsError('PAYMENT_SESSION_NOT_FOUND', 'payment session not found');
    return state;
  }
}
