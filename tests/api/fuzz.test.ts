/**
 * Every documented endpoint under generated malformed input (issue 12's acceptance run, kept in the suite): each
 * answer is a 2xx or 4xx in the interface's own JSON envelope, never a 5xx, never a stack trace. Authenticated as a
 * real caller of each interface, so the input reaches the parsers and handlers behind the credentials.
 * FUZZ_RUNS sets the cases per endpoint (default 120).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { buildOpenApiDocument } from '../../api/shared/openapi.js';
import { openApi } from '../../container.js';
import { issueTestAccessToken, testMiniAppBasic } from '../support/access-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { gatewayHeaders } from '../support/gateway.js';
import { CheckoutCaller } from './checkout/checkout-support.js';
import { merchantWithKey, type MerchantKeys } from './orders/support.js';
import { hubHeaders, onboardMerchant, type Onboarded } from './payments/support.js';
import { operatorHeaders, OperatorApi, shopHeaders, type ShopMerchant } from './support.js';

const runs = Number(process.env.FUZZ_RUNS ?? 120);
const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Text a client could send: any unicode (controls, lone surrogates, NUL) or something shaped like an id. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    '9007199254740993',
    'null',
    'true',
    '%',
    '%zz',
    '%00',
    '../..',
    'Ẩm thực',
  ),
  fc.uuid().map(String),
  fc.integer().map(String),
);
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(anyText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
);
/** A body: JSON of any shape, or bytes that are not JSON at all. */
const anyBody = fc.oneof(
  anyJson.map((value) => ({ text: JSON.stringify(value) ?? 'null', type: 'application/json' })),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ text, type: 'application/json' })),
  anyJson.map((value) => ({ text: JSON.stringify(value) ?? '', type: 'text/plain' })),
);

interface Endpoint {
  method: (typeof methods)[number];
  path: string;
  query: string[];
}

function endpoints(): Endpoint[] {
  const doc = buildOpenApiDocument(openApi) as unknown as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    methods
      .filter((m) => item[m])
      .map((method) => ({
        method,
        path,
        query: (item[method]!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
  );
}

describe('fuzzing: every endpoint answers generated malformed input with a 4xx in its envelope, never a 5xx', function () {
  this.timeout(600_000);
  let app: TestApp;
  let merchant: ShopMerchant;

  let bearer: string;
  let client: string;
  let orderKeys: MerchantKeys;
  let hubMerchant: Onboarded;

  before(async () => {
    app = await startTestApp();
    merchant = await new OperatorApi(app.baseUrl).createMerchant();
    bearer = await issueTestAccessToken(app, { userId: 'fuzz-user', scopes: ['profile', 'phone', 'email'] });
    client = await testMiniAppBasic(app);
    orderKeys = await merchantWithKey(app, 'FUZZ');
    hubMerchant = await onboardMerchant(app.baseUrl, 'FUZZ');
  });
  after(() => app?.stop());

  /** The headers of a real caller of the interface serving `path`: its credentials behind the gateway's. */
  function callerHeaders(path: string): Record<string, string> {
    const headers = path.startsWith('/operator/')
      ? operatorHeaders()
      : path.startsWith('/api/payments/')
        ? hubHeaders(hubMerchant.keys.T1!.paymentApiKey, String(Math.floor(Date.now() / 1000)))
        : path.startsWith('/loyalty/')
          ? new CheckoutCaller(app.baseUrl, merchant, 'fuzz-user').headers({ 'X-Idempotency-Key': randomUUID() })
          : path.startsWith('/oauth2/')
            ? { ...gatewayHeaders(), Authorization: client }
            : path.startsWith('/open/') || path.startsWith('/order/cov/app/')
              ? { ...gatewayHeaders(), Authorization: `Bearer ${bearer}` }
              : path.startsWith('/order/cov/webhook/')
                ? { ...gatewayHeaders(), 'X-API-Key': orderKeys.apiKey, 'X-Request-Id': randomUUID() }
                : shopHeaders(merchant, 'fuzz-user');
    return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
  }

  it('covers the documented endpoints', () => {
    expect(endpoints().length).to.be.greaterThan(30);
  });

  for (const endpoint of endpoints()) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path}`, async () => {
      const withBody = endpoint.method !== 'get' && endpoint.method !== 'delete';
      const statuses = new Set<number>();
      const queryNames = fc.oneof(fc.constantFrom(...(endpoint.query.length ? endpoint.query : ['q'])), anyText);
      await fc.assert(
        fc.asyncProperty(
          fc.array(anyText, { minLength: 4, maxLength: 4 }),
          fc.dictionary(queryNames, fc.oneof(anyText, fc.array(anyText, { maxLength: 3 })), { maxKeys: 4 }),
          anyBody,
          async (segments, query, body) => {
            let i = 0;
            const path = endpoint.path.replace(/\{\w+\}/g, () => encodeURIComponent(segments[i++ % segments.length]!));
            const search = new URLSearchParams();
            for (const [name, value] of Object.entries(query))
              for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
            const url = `${app.baseUrl}${path}${search.size ? `?${search}` : ''}`;
            const response = await fetch(url, {
              method: endpoint.method.toUpperCase(),
              headers: { ...callerHeaders(endpoint.path), ...(withBody ? { 'content-type': body.type } : {}) },
              body: withBody ? body.text : undefined,
            });
            const text = await response.text();
            statuses.add(response.status);
            const where = `${endpoint.method.toUpperCase()} ${url} ${withBody ? body.text : ''} → ${response.status} ${text}`;
            expect(response.status, where).to.be.below(500);
            expect(text, where).not.to.match(/\n\s+at |node_modules|\.ts:\d+/);
            // A page (the sandbox consent page) answers in HTML, its own envelope; every API answers JSON.
            if (response.status >= 400 && !response.headers.get('content-type')?.startsWith('text/html')) {
              const envelope = JSON.parse(text) as Record<string, unknown>;
              expect(envelope, where).to.satisfy(
                (e: Record<string, unknown>) => 'code' in e || 'error' in e,
                'an error envelope ({code, message, data} or an OAuth error)',
              );
            }
          },
        ),
        { numRuns: runs },
      );
      // The caller's credentials hold, so the input reached what lies behind them (a provider's callback is signed
      // over its body by the provider, which generated input never is).
      if (!endpoint.path.startsWith('/payment-providers/'))
        expect([...statuses], 'some answer got past the credentials').to.satisfy((s: number[]) =>
          s.some((x) => x !== 401),
        );
    });
  }
});
