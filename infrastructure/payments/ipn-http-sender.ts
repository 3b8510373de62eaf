/**
 * The IPN dispatcher's outbound HTTP (application/payments/ipn-ports.ts IpnSender; docs/ipn.md, "Retry rules"): a
 * POST through the service's one outbound client (infrastructure/shared/outbound/outbound-http.ts, docs/outbound.md),
 * so the egress policy holds, no redirect is followed (a 3xx is the answer), at most `maxBodyBytes` of the answer is
 * read, and the timeout counts from the start of the request to the end of the answer.
 */
import type { IpnSender, PostResult } from '../../application/payments/index.js';
import type { OutboundHttp } from '../shared/outbound/outbound-http.js';

export class HttpIpnSender implements IpnSender {
  constructor(
    private readonly client: OutboundHttp,
    private readonly maxBodyBytes = 4096,
  ) {}

  post(
    url: URL,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<PostResult> {
    return this.client.post(url, body, headers, { timeoutMs, maxBodyBytes: this.maxBodyBytes, signal });
  }
}
