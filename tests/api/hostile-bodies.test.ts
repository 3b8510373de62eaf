/**
 * Hostile bodies cost nothing (issue 29; docs/conventions.md, "Request bodies"): every interface that reads a body,
 * called as its real caller, answers deep nesting (10,000 levels; branches 4,000 deep filling its size limit),
 * corrupt gzip and deflate, an unknown Content-Encoding, a body past its limit (sent or inflated), huge numbers, NUL
 * and lone surrogates, repeated keys, non-object tops and bodies of the size limit shaped to cost JSON.parse most
 * (past the interface's count budget of members and elements) with a 4xx in its own envelope and code, never a 5xx;
 * the costliest shape the budget accepts never a 5xx; and `GET /health` answers within 100 ms while the worst of those
 * bodies, accepted and refused, are in flight, on a real listening server.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { hmacSha256Hex } from '../../application/shared/signatures.js';
import { issueTestAccessToken, testMiniAppBasic } from '../support/access-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { gatewayHeaders } from '../support/gateway.js';
import { createdBody, merchantWithKey, type MerchantKeys } from './orders/support.js';
import { hubHeaders, onboardMerchant, type Onboarded } from './payments/support.js';
import { operatorHeaders, OperatorApi, shopHeaders, type ShopMerchant } from './support.js';

interface Answer {
  status: number;
  text: string;
  type: string;
}

/** One request over a fresh connection; an answer sent before the body was read whole still counts as the answer. */
function send(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const length = body ? { 'Content-Length': String(body.length) } : {};
    const req = http.request(url, { method, headers: { ...length, ...headers }, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          text: Buffer.concat(chunks).toString('utf8'),
          type: String(res.headers['content-type'] ?? ''),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}

const levels = 10_000;
const branchDepth = 4_000;
const nestedArrays = (n: number, inner = '0') => '['.repeat(n) + inner + ']'.repeat(n);
const nestedObjects = (n: number, inner = '0') => '{"a":'.repeat(n) + inner + '}'.repeat(n);
/** As many branches `branchDepth` deep as fit in `bytes` (at least one), as the values of an object's keys. */
function branches(bytes: number): string {
  const branch = nestedArrays(branchDepth);
  const count = Math.max(1, Math.floor((bytes - 1024) / (branch.length + 8)));
  return `{${Array.from({ length: count }, (_, i) => `"b${i}":${branch}`).join(',')}}`;
}

type Problem = 'invalid' | 'tooLarge' | 'unsupportedMediaType';
const statusOf: Record<Problem, number> = { invalid: 400, tooLarge: 413, unsupportedMediaType: 415 };

/** A hostile body: its bytes and headers, and the refusal it must get (or only "not a 5xx" when its meaning decides). */
interface Hostile {
  name: string;
  bytes: Buffer;
  headers?: Record<string, string>;
  expected: Problem | 'not5xx';
}

/** An interface's endpoint that reads a body, as its real caller calls it. */
interface Target {
  name: string;
  method: string;
  path: string;
  /** Its body limit in bytes. */
  limit: number;
  /** Its count budget: object members and array elements (api/shared/json-shape.ts). */
  budget: { members: number; elements: number };
  /** What its envelope answers for each body problem: a code (in `code`, or `error` for OAuth), or only a status. */
  codes: Record<Problem, string> | 'status-only';
  /** The body's media type. */
  type: string;
  headers(body: Buffer): Record<string, string>;
  /** A valid body of the endpoint with `inner` (JSON text) at a free-form place, to carry deep nesting past its schema. */
  around?(inner: string): string;
}

/** The hostile bodies every JSON target gets; `limit` sizes the ones that fill or pass it. */
function hostileJson(target: Target): Hostile[] {
  const wrap = target.around ?? ((inner: string) => `{"x":${inner}}`);
  const text = (name: string, body: string, expected: Hostile['expected']): Hostile => ({
    name,
    bytes: Buffer.from(body, 'utf8'),
    expected,
  });
  const sized = (name: string, body: string): Hostile =>
    text(name, body, Buffer.byteLength(body) > target.limit ? 'tooLarge' : 'invalid');
  const valid = Buffer.from(wrap('{}'));
  return [
    sized(`arrays ${levels} deep`, nestedArrays(levels)),
    sized(`objects ${levels} deep`, nestedObjects(levels)),
    sized(`arrays ${levels} deep inside a valid body`, wrap(nestedArrays(levels))),
    sized(`branches ${branchDepth} deep filling the limit`, wrap(branches(target.limit))),
    {
      name: 'corrupt gzip',
      bytes: Buffer.concat([gzipSync(valid).subarray(0, 12), randomBytes(64)]),
      headers: { 'Content-Encoding': 'gzip' },
      expected: 'invalid',
    },
    {
      name: 'corrupt deflate',
      bytes: randomBytes(64),
      headers: { 'Content-Encoding': 'deflate' },
      expected: 'invalid',
    },
    {
      name: 'gzip truncated',
      bytes: gzipSync(valid).subarray(0, 20),
      headers: { 'Content-Encoding': 'gzip' },
      expected: 'invalid',
    },
    {
      name: 'an unknown encoding (br)',
      bytes: valid,
      headers: { 'Content-Encoding': 'br' },
      expected: 'unsupportedMediaType',
    },
    {
      name: 'a charset other than UTF-8',
      bytes: valid,
      headers: { 'Content-Type': `${target.type}; charset=utf-16le` },
      expected: 'unsupportedMediaType',
    },
    text('past the limit', `{"x":"${'a'.repeat(target.limit)}"}`, 'tooLarge'),
    {
      name: 'gzip inflating past the limit',
      bytes: gzipSync(Buffer.from(`{"x":"${' '.repeat(target.limit * 4)}"}`)),
      headers: { 'Content-Encoding': 'gzip' },
      expected: 'tooLarge',
    },
    text('NUL in a value', wrap('{"k":"a\\u0000b"}'), 'invalid'),
    text('NUL in a key', wrap('{"k\\u0000":1}'), 'invalid'),
    text('a lone surrogate in a value', wrap('{"k":"\\ud800"}'), 'invalid'),
    text('a lone surrogate in a key', wrap('{"\\udfffk":1}'), 'invalid'),
    text('huge numbers', wrap(`{"n":1e400,"m":-1e400,"i":${'9'.repeat(100)}}`), 'not5xx'),
    text('huge numbers in every field', hugeNumbersEverywhere(wrap('{}')), 'not5xx'),
    text('repeated keys', wrap('{"a":1,"a":{"b":2},"a":[3]}'), 'not5xx'),
    text('an array at the top', '[{}]', 'not5xx'),
    text('a string at the top', '"x"', 'not5xx'),
    text('a number at the top', '1e400', 'not5xx'),
    text('null at the top', 'null', 'not5xx'),
    text('not JSON', '{"a":', 'invalid'),
    ...shapeCostly(target),
  ];
}

/**
 * The bodies of the size limit whose shape JSON.parse pays most for (docs/conventions.md, "Request bodies"): many
 * distinct keys in one object (for the order webhook, its free-form metadata map), many small objects of distinct
 * keys, many empty objects; each past the interface's count budget, so refused before JSON.parse as invalid input.
 */
function shapeCostly(target: Target): Hostile[] {
  const wrap = target.around ?? ((inner: string) => `{"x":${inner}}`);
  const room = target.limit - Buffer.byteLength(wrap('{}')) - 64;
  const filling = (piece: (i: number) => string, open: string, close: string) => {
    const parts: string[] = [];
    for (let i = 0, bytes = 2; bytes + piece(i).length + 1 <= room; i++) {
      parts.push(piece(i));
      bytes += piece(i).length + 1;
    }
    return `${open}${parts.join(',')}${close}`;
  };
  const body = (name: string, inner: string): Hostile => ({
    name,
    bytes: Buffer.from(wrap(inner)),
    expected: 'invalid',
  });
  return [
    body(
      'distinct keys filling the limit (a wide map)',
      filling((i) => `"k${i}":1`, '{', '}'),
    ),
    body(
      'small objects of distinct keys filling the limit',
      filling((i) => smallObject(i), '[', ']'),
    ),
    body(
      'empty objects filling the limit',
      filling(() => '{}', '[', ']'),
    ),
    body(
      'numbers filling the limit',
      filling(() => '1', '[', ']'),
    ),
  ];
}
const smallObject = (i: number) => `{"a${i}":1,"b${i}":2,"c${i}":3,"d${i}":4}`;

/**
 * The costliest body the interface's budget accepts: small objects of four distinct keys, as many as its member
 * budget leaves past the valid body around them (within the size limit). It reaches the parser and the walks after
 * it; the handler may still refuse it (a schema, a signature), never with a 5xx.
 */
function worstAccepted(target: Target): Hostile {
  const wrap = target.around ?? ((inner: string) => `{"x":${inner}}`);
  const around = Buffer.from(wrap('{}')).toString();
  const aroundMembers = (around.match(/":/g) ?? []).length;
  const aroundElements = (around.match(/\[(?!\])|,/g) ?? []).length;
  const objects = Math.min(
    Math.floor((target.budget.members - aroundMembers) / 4),
    target.budget.elements - aroundElements,
    Math.floor((target.limit - around.length) / (smallObject(999_999).length + 1)),
  );
  const inner = `[${Array.from({ length: objects }, (_, i) => smallObject(i)).join(',')}]`;
  return {
    name: `the worst accepted shape (${objects * 4} distinct keys)`,
    bytes: Buffer.from(wrap(inner)),
    expected: 'not5xx',
  };
}

/** A valid body with every number made 1e400 and every string a 100-digit number. */
function hugeNumbersEverywhere(body: string): string {
  return body.replace(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g, '1e400').replace(/"[^"]*"(?=\s*[,}\]])/g, `${'9'.repeat(100)}`);
}

describe('hostile bodies: every interface answers its own 4xx, never a 5xx, and /health stays fast', function () {
  this.timeout(600_000);
  let app: TestApp;
  let merchant: ShopMerchant;
  let bearer: string;
  let client: string;
  let orderKeys: MerchantKeys;
  let payments: Onboarded;
  const targets: Target[] = [];
  const qrKey = () => hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_QR');
  const json = 'application/json';
  const clean = (h: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined));

  for (const step of ['reserve', 'commit', 'release'])
    targets.push({
      name: `shop ${step}`,
      method: 'POST',
      path: `/api/v1/vouchers/${step}`,
      limit: 64 * 1024,
      budget: { members: 1_000, elements: 1_000 },
      codes: { invalid: 'SHOP-REQ-001', tooLarge: 'SHOP-REQ-413', unsupportedMediaType: 'SHOP-REQ-415' },
      type: json,
      headers: () => clean(shopHeaders(merchant, 'hostile-user', { 'X-Idempotency-Key': randomUUID() })),
      around: (inner) => `{"orderId":"o-1","items":[{"poolId":1,"quantity":1}],"x":${inner}}`,
    });
  for (const step of ['applicable', 'preview-discount', 'reserve', 'confirm', 'release', 'get-reservation', 'refund'])
    targets.push({
      name: `checkout ${step}`,
      method: 'POST',
      path: `/loyalty/v1/promotion/${step}`,
      limit: 256 * 1024,
      budget: { members: 5_000, elements: 10_000 },
      codes: { invalid: '8400', tooLarge: '8413', unsupportedMediaType: '8415' },
      type: json,
      headers: () =>
        clean({
          ...gatewayHeaders(),
          env: 'dev',
          'X-Auth-Audience': 'superapp',
          'X-Merchant-Id': merchant.merchantId,
          'X-App-Id': 'miniapp-1',
          'X-App-User-Id': 'hostile-user',
          'X-Promotion-API-Key': merchant.apiKey,
          'X-Request-Id': randomUUID(),
          'X-Idempotency-Key': randomUUID(),
        }),
      around: (inner) => `{"order_id":"o-1","reservation_key":"k","orders":[],"x":${inner}}`,
    });
  for (const [method, path] of [
    ['POST', '/transactions'],
    ['PUT', '/transactions/cancel'],
    ['PUT', '/transactions/confirm'],
    ['PUT', '/user-payment-methods/remove'],
    ['POST', '/transactions/refund'],
    ['POST', '/transactions/snapshot'],
    ['POST', '/refunds/snapshot'],
    ['POST', '/payment-sessions'],
    ['PUT', '/payment-sessions/cancel'],
  ] as const)
    targets.push({
      name: `payment hub ${method} ${path}`,
      method,
      path: `/api/payments/v1${path}`,
      limit: 64 * 1024,
      budget: { members: 2_000, elements: 1_000 },
      codes: { invalid: '4001', tooLarge: '4001', unsupportedMediaType: '4001' },
      type: json,
      headers: () =>
        clean(hubHeaders(payments.keys.T1!.paymentApiKey, String(Math.floor(Date.now() / 1000)), randomUUID())),
      around: (inner) => `{"orderId":"o-1","amount":1000,"currency":"VND","x":${inner}}`,
    });
  for (const kind of ['callbacks', 'refund-callbacks'])
    targets.push({
      name: `provider ${kind}`,
      method: 'POST',
      path: `/payment-providers/v1/SANDBOX_QR/${kind}`,
      limit: 32 * 1024,
      budget: { members: 200, elements: 200 },
      codes: { invalid: 'INVALID', tooLarge: 'INVALID', unsupportedMediaType: 'INVALID' },
      type: json,
      // Signed as the provider signs (over the bytes it sends), so that the body reaches the parser.
      headers: (body) => ({ 'X-Provider-Signature': hmacSha256Hex(qrKey(), body.toString('utf8')) }),
      around: (inner) => `{"callbackId":"cb-1","transactionId":"t-1","result":"AUTHORIZED","x":${inner}}`,
    });
  for (const kind of ['created', 'updated', 'cancelled'])
    targets.push({
      name: `order webhook ${kind}`,
      method: 'POST',
      path: `/order/cov/webhook/v1/orders/${kind}`,
      get limit() {
        return app.container.config.ORDERS_WEBHOOK_MAX_BYTES;
      },
      budget: { members: 5_000, elements: 5_000 },
      codes: { invalid: '4001', tooLarge: '4130', unsupportedMediaType: '4150' },
      type: json,
      headers: () => ({ ...gatewayHeaders(), 'X-API-Key': orderKeys.apiKey, 'X-Request-Id': randomUUID() }),
      // A body the schema takes (the nesting in the free-form metadata map), so that it reaches the walk after it.
      around: (inner) => {
        const body = createdBody(`HOSTILE-${kind}`, {}, { metadata: { placeholder: true } });
        return JSON.stringify({ secure_hash: 'a'.repeat(64), ...body }).replace('{"placeholder":true}', inner);
      },
    });
  for (const step of ['exchange', 'revoke'])
    targets.push({
      name: `oauth token ${step}`,
      method: 'POST',
      path: `/oauth2/token/${step}`,
      limit: 16 * 1024,
      budget: { members: 50, elements: 50 },
      codes: { invalid: 'invalid_request', tooLarge: 'invalid_request', unsupportedMediaType: 'invalid_request' },
      type: json,
      headers: () => ({ ...gatewayHeaders(), Authorization: client }),
      around: (inner) => `{"grant_type":"refresh_token","refresh_token":"r","token":"t","x":${inner}}`,
    });
  targets.push({
    name: 'operator API',
    method: 'POST',
    path: '/operator/v1/merchants',
    limit: 256 * 1024,
    budget: { members: 5_000, elements: 5_000 },
    codes: { invalid: 'OPS-REQ-001', tooLarge: 'OPS-REQ-413', unsupportedMediaType: 'OPS-REQ-415' },
    type: json,
    headers: () => clean(operatorHeaders()),
    around: (inner) => `{"merchantId":"m-hostile","name":"Hostile","x":${inner}}`,
  });

  before(async () => {
    app = await startTestApp({ background: false });
    merchant = await new OperatorApi(app.baseUrl).createMerchant();
    bearer = await issueTestAccessToken(app, { userId: 'hostile-user', scopes: ['profile', 'phone', 'email'] });
    client = await testMiniAppBasic(app);
    orderKeys = await merchantWithKey(app, 'HOSTILE');
    payments = await onboardMerchant(app.baseUrl, 'HOSTILE');
  });
  after(() => app?.stop());

  /** The code of an answer in the target's envelope; asserts the envelope, and that no trace leaks. */
  function refusal(target: Target, hostile: Hostile, answer: Answer): void {
    const where = `${target.name}, ${hostile.name}: ${answer.status} ${answer.text.slice(0, 300)}`;
    expect(answer.status, where).to.be.within(hostile.expected === 'not5xx' ? 200 : 400, 499);
    expect(answer.text, where).not.to.match(/\n\s+at |node_modules|\.ts:\d+/);
    if (hostile.expected !== 'not5xx') expect(answer.status, where).to.equal(statusOf[hostile.expected]);
    if (target.codes === 'status-only') return;
    const envelope = JSON.parse(answer.text) as { code?: unknown; error?: unknown };
    const code = String(envelope.code ?? envelope.error);
    if (hostile.expected !== 'not5xx') expect(code, where).to.equal(target.codes[hostile.expected]);
    else if (answer.status >= 400) expect(code, where).to.not.equal('undefined');
  }

  const request = (target: Target, hostile: Hostile) =>
    send(
      `${app.baseUrl}${target.path}`,
      target.method,
      {
        'Content-Type': target.type,
        ...target.headers(hostile.bytes),
        ...hostile.headers,
      },
      hostile.bytes,
    );

  it('reaches every interface that reads a JSON body', () => {
    expect(new Set(targets.map((t) => t.name.split(' ')[0]))).to.have.keys(
      'shop',
      'checkout',
      'payment',
      'provider',
      'order',
      'oauth',
      'operator',
    );
  });

  describe('each hostile body: a 4xx in the envelope with the code of the interface', () => {
    for (const target of targets)
      it(target.name, async () => {
        const failures: string[] = [];
        for (const hostile of hostileJson(target)) {
          try {
            refusal(target, hostile, await request(target, hostile));
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
        expect(failures, failures.join('\n')).to.deep.equal([]);
      });
  });

  it("userinfo (GET), files upload (multipart) and the sandboxes' forms: a 4xx or not read, never a 5xx", async () => {
    const bearerHeaders = { ...gatewayHeaders(), Authorization: `Bearer ${bearer}` };
    const multipart = (boundary: string, payload: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
          `Content-Type: text/plain\r\n\r\n${payload}\r\n--${boundary}--\r\n`,
      );
    const deep = Buffer.from(nestedArrays(levels));
    const cases: [string, string, Record<string, string>, Buffer, number[]][] = [
      ['userinfo, deep JSON', 'GET', { 'Content-Type': 'application/json' }, deep, [200]],
      [
        'userinfo, corrupt gzip',
        'GET',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        randomBytes(64),
        [200],
      ],
      ['files, deep JSON', 'POST', { 'Content-Type': 'application/json' }, deep, [415]],
      [
        'files, corrupt gzip multipart',
        'POST',
        { 'Content-Type': 'multipart/form-data; boundary=xx', 'Content-Encoding': 'gzip' },
        randomBytes(256),
        [400, 415],
      ],
      [
        'files, unknown encoding',
        'POST',
        { 'Content-Type': 'multipart/form-data; boundary=xx', 'Content-Encoding': 'br' },
        multipart('xx', 'hello'),
        [415],
      ],
      [
        'files, NUL and a lone surrogate in the form',
        'POST',
        { 'Content-Type': 'multipart/form-data; boundary=xx' },
        Buffer.concat([
          Buffer.from('--xx\r\nContent-Disposition: form-data; name="n\u0000"\r\n\r\n\ud800\r\n'),
          multipart('xx', 'x').subarray(0),
        ]),
        [400],
      ],
    ];
    // The sandboxes' HTML forms (identity consent, the payment page): read by the same form parser.
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const bigForm = Buffer.from(`csrf=${'a'.repeat(9 * 1024)}`);
    for (const page of ['identity consent', 'payment page'])
      cases.push(
        [`${page}, corrupt gzip`, 'POST', { ...form, 'Content-Encoding': 'gzip' }, randomBytes(64), [400]],
        [`${page}, corrupt deflate`, 'POST', { ...form, 'Content-Encoding': 'deflate' }, randomBytes(64), [400]],
        [`${page}, unknown encoding`, 'POST', { ...form, 'Content-Encoding': 'br' }, Buffer.from('a=b'), [415]],
        [`${page}, past the limit`, 'POST', form, bigForm, [413]],
        [`${page}, past the limit inflated`, 'POST', { ...form, 'Content-Encoding': 'gzip' }, gzipSync(bigForm), [413]],
      );
    const paths: Record<string, string> = {
      userinfo: '/open/identity/v1/userinfo',
      files: '/open/files/v1/files',
      identity: '/sandbox/identity/consent',
      payment: `/sandbox/payments/${randomUUID()}`,
    };
    for (const [name, method, headers, body, statuses] of cases) {
      const path = paths[name.split(/[ ,]/)[0]!]!;
      const answer = await send(`${app.baseUrl}${path}`, method, { ...bearerHeaders, ...headers }, body);
      expect(answer.status, `${name}: ${answer.status} ${answer.text}`).to.be.oneOf(statuses);
      expect(answer.text, name).not.to.match(/\n\s+at |node_modules|\.ts:\d+/);
    }
  });

  describe('the worst accepted shape: within the budget, never a 5xx', () => {
    for (const target of targets)
      it(target.name, async () => {
        const worst = worstAccepted(target);
        refusal(target, worst, await request(target, worst));
      });
  });

  describe('GET /health answers within 100 ms while the worst bodies of an interface are in flight', () => {
    for (const target of targets)
      it(target.name, async () => {
        const worst = [
          ...hostileJson(target).filter((h) => /deep|gzip inflating|filling the limit/.test(h.name)),
          worstAccepted(target),
        ];
        const inFlight = Promise.all(worst.map((h) => request(target, h)));
        let finished = false;
        void inFlight.finally(() => (finished = true)).catch(() => undefined);
        let slowest = 0;
        do {
          const started = performance.now();
          const health = await send(`${app.baseUrl}/health`, 'GET', {});
          slowest = Math.max(slowest, performance.now() - started);
          expect(health.status).to.equal(200);
        } while (!finished);
        const answers = await inFlight;
        expect(slowest, 'the slowest /health while the bodies were in flight (ms)').to.be.below(100);
        for (const answer of answers) expect(answer.status, answer.text).to.be.below(500);
      });
  });
});
