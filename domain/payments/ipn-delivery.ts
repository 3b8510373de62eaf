/**
 * One IPN's delivery (docs/ipn.md, "Retry rules"): what an attempt's outcome does to it. Retried on HTTP 5xx, 408,
 * 429, a timeout or a network error, after 2 s, 4 s, 8 s, … (plus up to `jitterRatio` of the wait, at most
 * `maxWaitMs`) until the merchant's maximum retries are spent (EXHAUSTED); ended by any other answer: DELIVERED when
 * the partner has it (2xx with SUCCESS, DUPLICATE or no readable status), REJECTED when it refused it (2xx with FAILED,
 * INVALID_HASH or ORDER_NOT_FOUND; 1xx, 3xx (never followed) and the other 4xx). An operator's resend starts a new
 * round of retries. Pure: the dispatcher (application/payments/ipn-dispatcher.ts) stores the state it decides.
 */
import type { Decider } from '../shared/decider.js';

export const partnerStatuses = ['SUCCESS', 'DUPLICATE', 'FAILED', 'INVALID_HASH', 'ORDER_NOT_FOUND'] as const;
export type PartnerStatus = (typeof partnerStatuses)[number];

/** How one POST ended, as the sender saw it. */
export type AttemptOutcome =
  | { kind: 'RESPONSE'; httpStatus: number; partnerStatus: PartnerStatus | null }
  | { kind: 'TIMEOUT' }
  | { kind: 'NETWORK_ERROR'; message: string }
  /**
   * The registered URL is not one the hub posts to (not http or https, or refused by the egress policy:
   * docs/outbound.md): nothing was sent.
   */
  | { kind: 'URL_REFUSED'; message: string };

export type AttemptVerdict = 'DELIVERED' | 'RETRY' | 'REJECTED';

/** What one outcome means, whatever the retries left. */
export function verdictOf(outcome: AttemptOutcome): AttemptVerdict {
  switch (outcome.kind) {
    case 'TIMEOUT':
    case 'NETWORK_ERROR':
      return 'RETRY';
    case 'URL_REFUSED':
      return 'REJECTED';
    case 'RESPONSE': {
      const s = outcome.httpStatus;
      if (s >= 500 || s === 408 || s === 429) return 'RETRY';
      if (s < 200 || s >= 300) return 'REJECTED';
      const p = outcome.partnerStatus;
      return p === 'FAILED' || p === 'INVALID_HASH' || p === 'ORDER_NOT_FOUND' ? 'REJECTED' : 'DELIVERED';
    }
  }
}

export interface RetryPolicy {
  /** Wait before the first retry (2000: 2 s, 4 s, 8 s, …). */
  firstWaitMs: number;
  /** No wait longer than this (jitter included). */
  maxWaitMs: number;
  /** Up to this share of a wait is added at random (0.1: up to 10 %). */
  jitterRatio: number;
}

/** The wait before retry number `retry` (1-based) with `jitter` in [0, 1). */
export function retryWaitMs(policy: RetryPolicy, retry: number, jitter: number): number {
  const base = policy.firstWaitMs * 2 ** Math.min(retry - 1, 40);
  return Math.min(policy.maxWaitMs, Math.round(base * (1 + policy.jitterRatio * jitter)));
}

export const ipnDeliveryStatuses = ['PENDING', 'DELIVERED', 'REJECTED', 'EXHAUSTED'] as const;
export type IpnDeliveryStatus = (typeof ipnDeliveryStatuses)[number];

export interface IpnDelivery {
  status: IpnDeliveryStatus;
  /** Attempts ever made (their numbers are 1, 2, …, across resends). */
  attempts: number;
  /** Attempts made before the current round (the last resend); retries count from it. */
  roundStart: number;
  nextAttemptAt: string | null;
}

export type IpnDeliveryState = { status: 'NONE' } | IpnDelivery;

export type IpnDeliveryCommand =
  | { type: 'CreateNotification'; dueAt: string }
  | {
      type: 'RecordAttempt';
      attemptNo: number;
      outcome: AttemptOutcome;
      /** The merchant's maximum retries, as it is now. */
      maxRetries: number;
      policy: RetryPolicy;
      /** In [0, 1): the random share of the jitter (injected, so a test knows it). */
      jitter: number;
      now: string;
    }
  | { type: 'Resend'; by: string; now: string };

export type IpnDeliveryEvent =
  | { type: 'IpnNotificationCreated'; data: { dueAt: string } }
  | { type: 'IpnAttemptFailed'; data: { attemptNo: number; retryAt: string } }
  | { type: 'IpnDelivered'; data: { attemptNo: number; at: string } }
  | { type: 'IpnRejected'; data: { attemptNo: number; at: string } }
  | { type: 'IpnExhausted'; data: { attemptNo: number; at: string } }
  | { type: 'IpnResent'; data: { by: string; at: string } };

function decide(command: IpnDeliveryCommand, state: IpnDeliveryState): IpnDeliveryEvent[] {
  switch (command.type) {
    case 'CreateNotification':
      return state.status === 'NONE' ? [{ type: 'IpnNotificationCreated', data: { dueAt: command.dueAt } }] : [];
    case 'RecordAttempt': {
      // Only the attempt the state expects counts: a late answer of an older attempt (a lost lease) changes nothing.
      if (state.status !== 'PENDING' || command.attemptNo !== state.attempts + 1) return [];
      const { attemptNo, now } = command;
      const verdict = verdictOf(command.outcome);
      if (verdict === 'DELIVERED') return [{ type: 'IpnDelivered', data: { attemptNo, at: now } }];
      if (verdict === 'REJECTED') return [{ type: 'IpnRejected', data: { attemptNo, at: now } }];
      const inRound = attemptNo - state.roundStart;
      if (inRound >= 1 + command.maxRetries) return [{ type: 'IpnExhausted', data: { attemptNo, at: now } }];
      const wait = retryWaitMs(command.policy, inRound, command.jitter);
      return [
        { type: 'IpnAttemptFailed', data: { attemptNo, retryAt: new Date(Date.parse(now) + wait).toISOString() } },
      ];
    }
    case 'Resend':
      if (state.status === 'NONE') return [];
      return [{ type: 'IpnResent', data: { by: command.by, at: command.now } }];
  }
}

function evolve(state: IpnDeliveryState, event: IpnDeliveryEvent): IpnDeliveryState {
  if (event.type === 'IpnNotificationCreated')
    return { status: 'PENDING', attempts: 0, roundStart: 0, nextAttemptAt: event.data.dueAt };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'IpnAttemptFailed':
      return { ...state, attempts: event.data.attemptNo, nextAttemptAt: event.data.retryAt };
    case 'IpnDelivered':
      return { ...state, status: 'DELIVERED', attempts: event.data.attemptNo, nextAttemptAt: null };
    case 'IpnRejected':
      return { ...state, status: 'REJECTED', attempts: event.data.attemptNo, nextAttemptAt: null };
    case 'IpnExhausted':
      return { ...state, status: 'EXHAUSTED', attempts: event.data.attemptNo, nextAttemptAt: null };
    case 'IpnResent':
      return { ...state, status: 'PENDING', roundStart: state.attempts, nextAttemptAt: event.data.at };
  }
}

export const ipnDeliveryDecider: Decider<IpnDeliveryCommand, IpnDeliveryState, IpnDeliveryEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
