/**
 * The one outbound client against real local HTTP sinks (docs/outbound.md): the egress policy is checked on the
 * address a name resolves to when the socket connects (a resolver injected here answers what the test needs), a
 * redirect is never followed, and the answer is read only up to its cap.
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { expect } from 'chai';
import { OutboundHttp } from '../../../infrastructure/shared/outbound/outbound-http.js';
import type { EgressPolicy } from '../../../infrastructure/shared/outbound/egress-policy.js';
import { startSink, type Sink } from '../../support/sink.js';

const strict: EgressPolicy = { allowLoopback: false, httpsOnly: false };
const development: EgressPolicy = { allowLoopback: true, httpsOnly: false };

/** A resolver answering `addresses` for every name, counting its calls. */
function resolverOf(addresses: string[]) {
  const calls: string[] = [];
  const resolve = ((hostname: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) => {
    calls.push(hostname);
    setImmediate(() =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  }) as unknown as LookupFunction;
  return { resolve, calls };
}

describe('the outbound HTTP client against local sinks', () => {
  let sink: Sink;
  let clients: OutboundHttp[] = [];
  const client = (policy: EgressPolicy, resolve?: LookupFunction) => {
    const c = new OutboundHttp(policy, { resolve });
    clients.push(c);
    return c;
  };
  const post = (c: OutboundHttp, url: string) =>
    c.post(new URL(url), '{"n":1}', { 'Content-Type': 'application/json' }, { timeoutMs: 5_000 });

  beforeEach(async () => {
    sink = await startSink();
  });
  afterEach(async () => {
    for (const c of clients) c.close();
    clients = [];
    await sink.close();
  });

  it('refuses, when connecting, a name that resolves to a loopback address: the sink receives nothing', async () => {
    const dns = resolverOf(['127.0.0.1']);
    const result = await post(client(strict, dns.resolve), `http://partner.example:${sink.port}/ipn`);
    expect(result.kind).to.equal('REFUSED');
    expect(result).to.have.property('message').that.includes('127.0.0.1 is a loopback address');
    expect(dns.calls).to.deep.equal(['partner.example']);
    expect(sink.received).to.deep.equal([]);
  });

  it('refuses names resolving to the metadata, private or mapped loopback addresses the same way', async () => {
    for (const address of ['169.254.169.254', '10.0.0.1', '::ffff:127.0.0.1', '::1']) {
      const result = await post(client(strict, resolverOf([address]).resolve), `http://partner.example:${sink.port}/`);
      expect(result.kind, address).to.equal('REFUSED');
    }
    expect(sink.received).to.deep.equal([]);
  });

  it('connects only to the addresses it checked: of a private and a loopback answer, loopback when allowed', async () => {
    const dns = resolverOf(['10.0.0.1', '127.0.0.1']);
    const result = await post(client(development, dns.resolve), `http://partner.example:${sink.port}/ipn`);
    expect(result).to.deep.include({ kind: 'RESPONSE', httpStatus: 200 });
    expect(sink.received.map((r) => [r.method, r.path, r.body])).to.deep.equal([['POST', '/ipn', '{"n":1}']]);
  });

  it('refuses a literal refused address before connecting, and asks no resolver', async () => {
    const dns = resolverOf(['127.0.0.1']);
    for (const url of [
      `http://127.0.0.1:${sink.port}/`,
      `http://[::ffff:7f00:1]:${sink.port}/`,
      `http://localhost:${sink.port}/`,
    ]) {
      const result = await post(client(strict, dns.resolve), url);
      expect(result.kind, url).to.equal('REFUSED');
    }
    expect(dns.calls).to.deep.equal([]);
    expect(sink.received).to.deep.equal([]);
  });

  it('follows no redirect: the 3xx is the answer and the redirect target receives nothing', async () => {
    const target = await startSink();
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        const redirecting = await startSink(() => ({ status, headers: { Location: `${target.origin}/stolen` } }));
        const result = await post(client(development), `${redirecting.origin}/ipn`);
        expect(result, String(status)).to.deep.include({ kind: 'RESPONSE', httpStatus: status });
        expect(redirecting.received).to.have.length(1);
        await redirecting.close();
      }
      expect(target.received).to.deep.equal([]);
    } finally {
      await target.close();
    }
  });

  it('refuses plain http in production before anything is sent', async () => {
    const result = await post(client({ allowLoopback: false, httpsOnly: true }), 'http://partner.example/ipn');
    expect(result).to.deep.include({ kind: 'REFUSED' });
    expect(result).to.have.property('message').that.includes('https');
  });

  it('reads the answer only up to its cap', async () => {
    const big = await startSink(() => ({ status: 200, body: 'x'.repeat(100_000) }));
    try {
      const result = await client(development).post(
        new URL(big.origin),
        '{}',
        {},
        { timeoutMs: 5_000, maxBodyBytes: 100 },
      );
      expect(result).to.deep.include({ kind: 'RESPONSE', truncated: true });
      expect(result).to.have.property('body').with.length(100);
    } finally {
      await big.close();
    }
  });
});
