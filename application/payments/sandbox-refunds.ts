/**
 * The sandbox providers' refunds (docs/payments-sandbox.md, "Refunds"): a refund is taken at once (its provider refund
 * id answered) and its result reported shortly after, as a real provider does, by a callback signed with the
 * provider's key, to /payment-providers/v1/{providerCode}/refund-callbacks (or in this process: provider-port.ts). The result is decided by the amount: one
 * whose last two digits are 99 is refused (REFUND_DECLINED); any other completes. Idempotent by refundId: a refund
 * asked again while its callback is on its way is not sent twice.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { hmacSha256Hex } from '../shared/signatures.js';
import type { CallbackSender, ProviderRefund } from './provider-port.js';

/** The refund callback a provider posts, signed over its raw bytes (X-Provider-Signature). */
export interface ProviderRefundCallback {
  callbackId: string;
  refundId: string;
  transactionId: string;
  providerRefundId: string;
  result: 'REFUNDED' | 'FAILED';
  errorCode: string | null;
  errorMessage: string | null;
  sentAt: string;
}

export const refundCallbackPath = (providerCode: string) => `/payment-providers/v1/${providerCode}/refund-callbacks`;

/** The sandbox's rule for a refused refund: an amount whose last two digits are 99. */
export const sandboxRefundRefused = (amount: number) => amount % 100 === 99;

/** Waits before each attempt to post a refund's callback: the first soon, then a few retries (the hub may be busy). */
const attemptDelaysMs = [50, 500, 2_000, 5_000, 15_000];

export class SandboxRefunds {
  private readonly inFlight = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly deps: {
      providerKey: (code: string) => string;
      /** Delivers callbacks to the hub, where configuration says. */
      sender: CallbackSender;
      clock: Clock;
    },
  ) {}

  async refund(refund: ProviderRefund): Promise<{ providerRefundId: string }> {
    const providerRefundId = `SBX-RF-${refund.refundId}`;
    if (!this.inFlight.has(refund.refundId)) {
      this.inFlight.add(refund.refundId);
      this.schedule(refund, providerRefundId, 0);
    }
    return { providerRefundId };
  }

  /** Drops the callbacks not sent yet (the service stops). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.inFlight.clear();
  }

  private schedule(refund: ProviderRefund, providerRefundId: string, attempt: number): void {
    const delay = attemptDelaysMs[attempt];
    if (delay === undefined) {
      this.inFlight.delete(refund.refundId); // given up: a later refund call (a redelivery) tries again
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.send(refund, providerRefundId).then(
        (done) => (done ? this.inFlight.delete(refund.refundId) : this.schedule(refund, providerRefundId, attempt + 1)),
        () => this.schedule(refund, providerRefundId, attempt + 1),
      );
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  private async send(refund: ProviderRefund, providerRefundId: string): Promise<boolean> {
    const refused = sandboxRefundRefused(refund.amount);
    const callback: ProviderRefundCallback = {
      callbackId: randomUUID(),
      refundId: refund.refundId,
      transactionId: refund.transactionId,
      providerRefundId,
      result: refused ? 'FAILED' : 'REFUNDED',
      errorCode: refused ? 'REFUND_DECLINED' : null,
      errorMessage: refused ? 'The sandbox refuses refunds whose amount ends in 99' : null,
      sentAt: this.deps.clock.now().toISOString(),
    };
    const body = JSON.stringify(callback);
    const answer = await this.deps.sender.send({
      kind: 'refund',
      providerCode: refund.providerCode,
      body,
      signature: hmacSha256Hex(this.deps.providerKey(refund.providerCode), body),
    });
    // 409: the refund has another result already; nothing to send again.
    return answer.status === 200 || answer.status === 409;
  }
}
