/**
 * The sandbox providers' callbacks delivered in this process (docs/payments-sandbox.md, "Callbacks"), when
 * PAYMENTS_SANDBOX_CALLBACK_BASE_URL is unset: the same verification and the same service the HTTP endpoint
 * (api/payments/provider-callback-router.ts) runs, without a network hop, so the sandbox sends nothing anywhere.
 * Answers as the endpoint would: 200 applied, 409 another result holds, 401 a bad signature, 404 unknown.
 */
import { isDomainError } from '../shared/errors.js';
import type { ProviderCallbacks } from './provider-callbacks.js';
import type { CallbackSender } from './provider-port.js';
import type { RefundCallbacks } from './refund-callbacks.js';
import type { ProviderCallback } from './sandbox-providers.js';
import type { ProviderRefundCallback } from './sandbox-refunds.js';

const statusOf: Record<string, number> = {
  INVALID_PROVIDER_CALLBACK: 401,
  TRANSACTION_NOT_FOUND: 404,
  TRANSACTION_NOT_PROCESSABLE: 409,
};

export class InProcessHubCallbacks implements CallbackSender {
  /** The hub's services, reached when a callback is sent (they are built after the sandbox). */
  constructor(private readonly hub: () => { providerCallbacks: ProviderCallbacks; refundCallbacks: RefundCallbacks }) {}

  async send(callback: Parameters<CallbackSender['send']>[0]): Promise<{ status: number; body: string }> {
    const { providerCallbacks, refundCallbacks } = this.hub();
    try {
      providerCallbacks.verify(callback.providerCode, callback.body, callback.signature);
      // The sandbox made this JSON from its own typed callback a moment ago: it is that callback.
      const parsed: unknown = JSON.parse(callback.body);
      const status =
        callback.kind === 'payment'
          ? (await providerCallbacks.apply(callback.providerCode, parsed as ProviderCallback)).status
          : (await refundCallbacks.apply(callback.providerCode, parsed as ProviderRefundCallback)).status;
      return { status: 200, body: JSON.stringify({ code: 'OK', status }) };
    } catch (err) {
      const status = isDomainError(err) ? statusOf[err.code] : undefined;
      if (status === undefined) throw err;
      return { status, body: JSON.stringify({ code: isDomainError(err) ? err.code : 'INTERNAL' }) };
    }
  }
}
