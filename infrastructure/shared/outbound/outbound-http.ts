/**
 * The service's one outbound HTTP client (docs/outbound.md): every request the service sends to another host goes
 * through `OutboundHttp.post`. It applies the egress policy (egress-policy.ts) to the URL before anything is sent and,
 * through its own `lookup`, to every address a name resolves to, when the socket connects: only the addresses checked
 * are handed to the connection, so a name that resolves to a public address when checked and to a private one when
 * connecting (DNS rebinding) cannot slip through. It never follows a redirect (a 3xx is the answer), reads at most
 * `maxBodyBytes` of the answer (then drops the connection), and gives up after `timeoutMs` counted from the start of
 * the request to the end of the answer, so a target that trickles its answer holds nothing longer.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { OutboundTargets } from '../../../application/shared/outbound-targets.js';
import { addressRefusal, urlRefusal, type EgressPolicy } from './egress-policy.js';

/** How one request went. */
export type OutboundResult =
  | { kind: 'RESPONSE'; httpStatus: number; body: string; truncated: boolean; latencyMs: number }
  | { kind: 'TIMEOUT'; latencyMs: number }
  | { kind: 'NETWORK_ERROR'; message: string; latencyMs: number }
  /** The egress policy refused the target (the URL, or every address its name resolved to): nothing was sent. */
  | { kind: 'REFUSED'; message: string; latencyMs: number };

export interface OutboundRequest {
  timeoutMs: number;
  /** Bytes of the answer read at most (default 4096). */
  maxBodyBytes?: number;
  /** Cuts the request short (a NETWORK_ERROR). */
  signal?: AbortSignal;
}

const refusedCode = 'EGRESS_REFUSED';

class EgressRefused extends Error {
  readonly code = refusedCode;
}

export class OutboundHttp implements OutboundTargets {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly lookup: LookupFunction;

  constructor(
    private readonly policy: EgressPolicy,
    options: {
      /** Resolves names (default dns.lookup); tests give one that answers what they need. */
      resolve?: LookupFunction;
      maxSockets?: number;
    } = {},
  ) {
    const maxSockets = options.maxSockets ?? 256;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets });
    this.lookup = checkedLookup(options.resolve ?? (dns.lookup as LookupFunction), policy);
  }

  /** Why the policy refuses `url` as a target, judged from the URL alone (the operator API asks before storing one). */
  refusal(url: string): string | null {
    return urlRefusal(url, this.policy);
  }

  post(url: URL, body: string, headers: Record<string, string>, request: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const refused = urlRefusal(url, this.policy);
    if (refused) return Promise.resolve({ kind: 'REFUSED', message: refused, latencyMs: latency() });
    const maxBodyBytes = request.maxBodyBytes ?? 4096;
    const secure = url.protocol === 'https:';
    return new Promise<OutboundResult>((resolve) => {
      let settled = false;
      const settle = (result: OutboundResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.lookup,
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        signal: request.signal,
      });
      const timer = setTimeout(() => {
        settle({ kind: 'TIMEOUT', latencyMs: latency() });
        req.destroy();
      }, request.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        settle(
          err.code === refusedCode
            ? { kind: 'REFUSED', message: err.message, latencyMs: latency() }
            : {
                kind: 'NETWORK_ERROR',
                message: err.code ? `${err.code}: ${err.message}` : err.message,
                latencyMs: latency(),
              },
        ),
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
          if (size + chunk.length > maxBodyBytes) {
            chunks.push(chunk.subarray(0, maxBodyBytes - size));
            size = maxBodyBytes;
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

/**
 * A `lookup` for the sockets: resolves with `resolve`, keeps only the addresses the policy allows and hands the
 * connection those alone; none left is an EGRESS_REFUSED error. Node calls it for every new connection to a name
 * (a literal address needs none: the URL's check judged it).
 */
function checkedLookup(resolve: LookupFunction, policy: EgressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as dns.LookupAddress[];
      const refusals = list.map((a) => addressRefusal(a.address, policy));
      const allowed = list.filter((_, i) => refusals[i] === null);
      if (allowed.length === 0)
        return callback(
          new EgressRefused(`${hostname} resolves only to refused addresses (${refusals.join('; ')})`),
          '',
          0,
        );
      if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
