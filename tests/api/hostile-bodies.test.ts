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
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { hmacSha256Hex } from '../../application/shared/signatures.js';
import { issueTestAccessToken, testMiniAppBasic } from '../support/access-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { gatewayHeaders } from '../support/gateway.js';
import { createdBody, merchantWithKey, type MerchantKeys } from './orders/support.js';
import { hubHeaders, onboardMerchant, type Onboarded } from './payments/support.js';
import { operatorHeaders, OperatorApi, shopHeaders, type ShopMerchant } from './support.js';
import {
  type Answer,
  send,
  levels,
  nestedArrays,
  statusOf,
  type Hostile,
  type Target,
  hostileJson,
  worstAccepted,
} from './hostile-body-cases.js';

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
