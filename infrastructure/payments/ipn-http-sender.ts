/**
 * The IPN dispatcher's outbound HTTP (application/payments/ipn-ports.ts IpnSender; docs/ipn.md, "Retry rules"):
 * node:http(s) POSTs that never follow a redirect (a 3xx is the answer), read at most `maxBodyBytes` of the answer
 * (then close the connection), and give up after the timeout, counted from the start of the request to the end of the
 * answer, so a partner that trickles its answer cannot hold a slot longer.
 */
import http from 'node:http';
import https from 'node:https';
import type { IpnSender, PostResult } from '../../application/payments/index.js';

export class HttpIpnSender implements IpnSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(private readonly maxBodyBytes = 4096) {}

  post(
    url: URL,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<PostResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<PostResult>((resolve) => {
      let settled = false;
      const settle = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = transport.request(url, {
        method: 'POST',
        agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        signal,
      });
      const timer = setTimeout(() => {
        settle({ kind: 'TIMEOUT', latencyMs: latency() });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        settle({
          kind: 'NETWORK_ERROR',
          message: err.code ? `${err.code}: ${err.message}` : err.message,
          latencyMs: latency(),
        }),
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () =>
          settle({
            kind: 'RESPONSE',
            httpStatus: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            truncated,
            latencyMs: latency(),
          });
        res.on('data', (chunk: Buffer) => {
          if (size + chunk.length > this.maxBodyBytes) {
            chunks.push(chunk.subarray(0, this.maxBodyBytes - size));
            size = this.maxBodyBytes;
            truncated = true;
            done();
            // Enough read: the rest is dropped with the connection.
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', done);
        res.on('error', (err) => settle({ kind: 'NETWORK_ERROR', message: err.message, latencyMs: latency() }));
        res.on('aborted', () =>
          settle({ kind: 'NETWORK_ERROR', message: 'the answer was cut off', latencyMs: latency() }),
        );
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
