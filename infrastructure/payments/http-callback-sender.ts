/**
 * The sandbox providers' outbound HTTP (application/payments/provider-port.ts CallbackSender): a POST with a timeout,
 * answering the status and body. docs/payments-sandbox.md.
 */
import type { CallbackSender } from '../../application/payments/index.js';

export class HttpCallbackSender implements CallbackSender {
  constructor(private readonly timeoutMs = 10_000) {}

  async post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    const res = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(this.timeoutMs) });
    return { status: res.status, body: await res.text() };
  }
}
