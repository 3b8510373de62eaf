/**
 * One IPN's delivery, given/when/then (docs/ipn.md, "Retry rules"): the backoff schedule against an injected clock
 * and jitter, the end after the merchant's maximum retries, and what each answer and partner status does.
 */
import { expect } from 'chai';
import {
  ipnDeliveryDecider,
  retryWaitMs,
  verdictOf,
  type AttemptOutcome,
  type IpnDeliveryCommand,
  type IpnDeliveryEvent,
} from '../../../../domain/payments/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(ipnDeliveryDecider);
const policy = { firstWaitMs: 2000, maxWaitMs: 3_600_000, jitterRatio: 0.1 };
const t0 = '2026-03-01T03:00:00.000Z';
const plus = (ms: number) => new Date(Date.parse(t0) + ms).toISOString();
const created: IpnDeliveryEvent = { type: 'IpnNotificationCreated', data: { dueAt: t0 } };
const failed = (attemptNo: number, retryAt: string): IpnDeliveryEvent => ({
  type: 'IpnAttemptFailed',
  data: { attemptNo, retryAt },
});
const http = (httpStatus: number, partnerStatus: string | null = null): AttemptOutcome =>
  ({ kind: 'RESPONSE', httpStatus, partnerStatus }) as AttemptOutcome;
const attempt = (
  attemptNo: number,
  outcome: AttemptOutcome,
  now = t0,
  jitter = 0,
  maxRetries = 5,
): IpnDeliveryCommand => ({
  type: 'RecordAttempt',
  attemptNo,
  outcome,
  maxRetries,
  policy,
  jitter,
  now,
});

describe('IPN delivery (decider)', () => {
  describe('the backoff schedule', () => {
    it('waits 2 s after a first failed attempt (no jitter drawn)', () =>
      given([created])
        .when(attempt(1, http(500)))
        .then([failed(1, plus(2000))]));

    it('doubles: 4 s after the second, 8 s after the third, counted from the clock of each attempt', () => {
      given([created, failed(1, plus(2000))])
        .when(attempt(2, { kind: 'TIMEOUT' }, plus(2000)))
        .then([failed(2, plus(6000))]);
      given([created, failed(1, plus(2000)), failed(2, plus(6000))])
        .when(attempt(3, { kind: 'NETWORK_ERROR', message: 'ECONNREFUSED' }, plus(6000)))
        .then([failed(3, plus(14_000))]);
    });

    it('adds at most 10 % jitter', () => {
      given([created])
        .when(attempt(1, http(503), t0, 0.5))
        .then([failed(1, plus(2100))]);
      expect(retryWaitMs(policy, 4, 0.999))
        .to.be.below(16_000 * 1.1)
        .and.at.least(16_000);
    });

    it('never waits longer than the maximum', () => {
      expect(retryWaitMs({ ...policy, maxWaitMs: 60_000 }, 20, 0.9)).to.equal(60_000);
    });

    it('is EXHAUSTED when a retryable failure finds no retry left (max 2: attempts 1, 2, 3)', () =>
      given([created, failed(1, plus(2000)), failed(2, plus(6000))])
        .when(attempt(3, http(502), plus(6000), 0, 2))
        .then([{ type: 'IpnExhausted', data: { attemptNo: 3, at: plus(6000) } }]));

    it('with no retries, the first failure exhausts it', () =>
      given([created])
        .when(attempt(1, { kind: 'TIMEOUT' }, t0, 0, 0))
        .then([{ type: 'IpnExhausted', data: { attemptNo: 1, at: t0 } }]));

    it('after a resend, counts retries again from the resend, with the waits starting at 2 s', () => {
      const exhausted: IpnDeliveryEvent = { type: 'IpnExhausted', data: { attemptNo: 1, at: t0 } };
      const resent: IpnDeliveryEvent = { type: 'IpnResent', data: { by: 'alice', at: plus(60_000) } };
      given([created, exhausted, resent])
        .when(attempt(2, http(500), plus(60_000), 0, 1))
        .then([failed(2, plus(62_000))]);
    });

    it('ignores the result of an attempt it does not expect (a late answer after a lost lease)', () =>
      given([created, failed(1, plus(2000))])
        .when(attempt(1, http(200, 'SUCCESS')))
        .then([]));
  });

  describe('answers and partner statuses', () => {
    const delivered = (now = t0): IpnDeliveryEvent[] => [{ type: 'IpnDelivered', data: { attemptNo: 1, at: now } }];
    const rejected: IpnDeliveryEvent[] = [{ type: 'IpnRejected', data: { attemptNo: 1, at: t0 } }];

    it('SUCCESS and DUPLICATE deliver it', () => {
      given([created])
        .when(attempt(1, http(200, 'SUCCESS')))
        .then(delivered());
      given([created])
        .when(attempt(1, http(200, 'DUPLICATE')))
        .then(delivered());
    });

    it('a 2xx without a readable status (not JSON) delivers it: the partner has it', () =>
      given([created])
        .when(attempt(1, http(204)))
        .then(delivered()));

    it('FAILED, INVALID_HASH and ORDER_NOT_FOUND reject it: not retried, listed for the operator', () => {
      for (const status of ['FAILED', 'INVALID_HASH', 'ORDER_NOT_FOUND'])
        given([created])
          .when(attempt(1, http(200, status)))
          .then(rejected);
    });

    it('4xx rejects it, except 408 and 429, which are retried', () => {
      given([created])
        .when(attempt(1, http(404)))
        .then(rejected);
      given([created])
        .when(attempt(1, http(408)))
        .then([failed(1, plus(2000))]);
      given([created])
        .when(attempt(1, http(429)))
        .then([failed(1, plus(2000))]);
    });

    it('a redirect is an answer, never followed: rejected', () =>
      given([created])
        .when(attempt(1, http(302)))
        .then(rejected));

    it('a URL that is not http(s) is rejected without a POST', () =>
      given([created])
        .when(attempt(1, { kind: 'URL_REFUSED', message: 'not http' }))
        .then(rejected));

    it('500 to 599, a timeout and a network error are retried', () => {
      for (const outcome of [
        http(500),
        http(599),
        { kind: 'TIMEOUT' } as const,
        { kind: 'NETWORK_ERROR', message: 'x' } as const,
      ])
        expect(verdictOf(outcome)).to.equal('RETRY');
    });
  });
});
