/**
 * The sandbox providers' callbacks over HTTP (application/payments/provider-port.ts CallbackSender;
 * docs/payments-sandbox.md, "Callbacks"): POSTed to the hub at PAYMENTS_SANDBOX_CALLBACK_BASE_URL, a setting and
 * never a request's Host, through the service's one outbound client (docs/outbound.md: the egress policy, no
 * redirects, a bounded answer, a timeout). A target the client could not reach is an error without detail: what the
 * sandbox met stays in the logs, never on the payer's page.
 */
import { callbackPath, refundCallbackPath, type CallbackSender } from '../../application/payments/index.js';
import type { OutboundHttp } from '../shared/outbound/outbound-http.js';

export class HttpCallbackSender implements CallbackSender {
  constructor(
    private readonly baseUrl: string,
    private readonly client: OutboundHttp,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(callback: Parameters<CallbackSender['send']>[0]): Promise<{ status: number; body: string }> {
    const path = callback.kind === 'payment' ? callbackPath : refundCallbackPath;
    const url = new URL(`${this.baseUrl}${path(callback.providerCode)}`);
    const answer = await this.client.post(
      url,
      callback.body,
      { 'Content-Type': 'application/json', 'X-Provider-Signature': callback.signature },
      { timeoutMs: this.timeoutMs, maxBodyBytes: 4096 },
    );
    if (answer.kind !== 'RESPONSE')
      throw new Error(
        `the sandbox callback to ${url.origin} failed: ${answer.kind}${'message' in answer ? ` (${answer.message})` : ''}`,
      );
    return { status: answer.httpStatus, body: answer.body };
  }
}
