import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { secretDigest } from '../../../application/shared/signatures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { call, expectOk, expectRefusal, operatorHeaders } from '../support.js';
import { expectHubError, expectHubOk, hub, hubHeaders, initBody, nowSeconds, onboardMerchant } from './support.js';

type Json = Record<string, unknown>;

/** Onboarding through the operator API, and its effect on the hub's keys and signatures (docs/payments.md). */
describe('Payment hub onboarding (operator API, PostgreSQL)', () => {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ clock, background: false });
  });
  after(() => app?.stop());

  const op = (method: string, path: string, json?: unknown, headers = {}) =>
    call<Json>(app.baseUrl, method, `/operator/v1${path}`, { headers: { ...operatorHeaders(), ...headers }, json });
  const ts = () => nowSeconds(clock);

  it('answers the secretKey and each paymentApiKey once; the log keeps only a ciphertext and a sha256', async () => {
    const m = await onboardMerchant(app.baseUrl, 'acme', ['T1']);
    expect(m.secretKey).to.match(/^phs_[A-Za-z0-9]{48}$/);
    const key = m.keys.T1!.paymentApiKey;
    expect(key).to.match(/^phk_[A-Za-z0-9]{40}$/);

    const events = await app.container.store.readStream('paymentMerchant-acme');
    const logged = JSON.stringify(events.map((e) => e.data));
    expect(logged).not.to.include(m.secretKey);
    expect(logged).not.to.include(key);
    expect(logged).to.include(secretDigest(key));
    expect(events.map((e) => e.metadata.actor)).to.deep.include({ operator: 'alice' });

    const read = expectOk(await op('GET', '/payment-merchants/acme'));
    expect(JSON.stringify(read)).not.to.include(secretDigest(key));
    expect(read).to.deep.include({
      merchantCode: 'acme',
      ipnUrl: 'https://acme.example/ipn',
      maxIpnRetries: 5,
      onboardedBy: 'alice',
    });
    const terminal = (read.terminals as Json[])[0]!;
    expect((terminal.apiKeys as Json[])[0]).to.deep.include({
      status: 'ACTIVE',
      expiresAt: null,
      createdBy: 'alice',
      updatedBy: 'alice',
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    expect((terminal.paymentMethods as Json[]).map((p) => p.code)).to.have.members(['WALLET', 'CREDIT_CARD']);
    // Holding support per method, as its providers allow: the wallet holds, the card gateway cannot.
    const holding = Object.fromEntries((terminal.paymentMethods as Json[]).map((p) => [p.code, p.supportsHolding]));
    expect(holding).to.deep.equal({ WALLET: true, CREDIT_CARD: false });
  });

  it('refuses a resend of a key issue under its X-Idempotency-Key: a key is shown once (409)', async () => {
    await onboardMerchant(app.baseUrl, 'beta', ['T1']);
    const idem = { 'X-Idempotency-Key': randomUUID() };
    expectOk(await op('POST', '/payment-merchants/beta/terminals/T1/api-keys', {}, idem), 201);
    expectRefusal(
      await op('POST', '/payment-merchants/beta/terminals/T1/api-keys', {}, idem),
      409,
      'OPS-CONFLICT',
      /shown only once/,
    );
  });

  it('a revoked key and an expired key get 401 4100 on the hub', async () => {
    const m = await onboardMerchant(app.baseUrl, 'gamma', ['T1']);
    const key = m.keys.T1!;
    const lookup = (k: string) =>
      hub(app.baseUrl, 'GET', `/transactions?transactionId=${randomUUID()}`, hubHeaders(k, ts()));
    expectHubError(await lookup(key.paymentApiKey), 404, 4301);
    const revoked = expectOk(await op('POST', `/payment-merchants/gamma/terminals/T1/api-keys/${key.apiKeyId}/revoke`));
    const apiKey = ((revoked.terminals as Json[])[0]!.apiKeys as Json[])[0]!;
    expect(apiKey).to.deep.include({ status: 'REVOKED', updatedBy: 'alice' });
    expectHubError(await lookup(key.paymentApiKey), 401, 4100);

    const soon = expectOk(
      await op('POST', '/payment-merchants/gamma/terminals/T1/api-keys', { expiresAt: '2026-03-01T10:10:00+00:00' }),
      201,
    );
    expectHubError(await lookup(soon.paymentApiKey as string), 404, 4301);
    clock.advance(10 * 60_000);
    // Another process would see it within the directory's TTL; this one checks the expiry on every request.
    expectHubError(await lookup(soon.paymentApiKey as string), 401, 4100);
  });

  it('rotates the secretKey: the previous one still signs during the overlap, then 4102', async () => {
    const m = await onboardMerchant(app.baseUrl, 'delta', ['T1']);
    const rotated = expectOk(
      await op('POST', '/payment-merchants/delta/secret-key/rotate', { overlapSeconds: 600 }),
      201,
    );
    expect(rotated.secretKey).to.be.a('string').and.not.equal(m.secretKey);
    const key = m.keys.T1!.paymentApiKey;
    const init = (secret: string, orderId: string) =>
      hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key, ts()), initBody(secret, orderId));
    expectHubOk(await init(m.secretKey, 'D-1'));
    expectHubOk(await init(rotated.secretKey as string, 'D-2'));
    clock.advance(600_000);
    expectHubError(await init(m.secretKey, 'D-3'), 401, 4102);
    expectHubOk(await init(rotated.secretKey as string, 'D-4'));
    const read = expectOk(await op('GET', '/payment-merchants/delta'));
    expect((read.secretKeys as Json[]).map((s) => s.validUntil)).to.deep.equal([rotated.previousValidUntil, null]);
  });

  it('refuses auto-capture where the provider cannot hold, and bad input, naming the field', async () => {
    await onboardMerchant(app.baseUrl, 'eps', ['T1']);
    const card = {
      type: 'CARD',
      category: 'CREDIT',
      names: { vi: 'Thẻ', en: 'Card' },
      iconUrl: 'https://cdn.example/card.png',
      requiresRedirect: true,
      sortOrder: 1,
      autoCapture: true,
      providers: [
        { providerCode: 'SANDBOX_CARD', priority: 1, currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 10 }] },
      ],
    };
    const path = '/payment-merchants/eps/terminals/T1/payment-methods/CREDIT_CARD';
    const refused = await op('PUT', path, card);
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.include({ code: 'OPS-REQ-001', data: { field: 'autoCapture' } });
    expect(refused.body!.message).to.match(/auto-capture/);
    const withField = await op('PUT', path, { ...card, autoCapture: null, iconUrl: 'not a url' });
    expect(withField.status).to.equal(400);
    expect(withField.body!.data).to.deep.equal({ field: 'iconUrl' });
    expectRefusal(
      await op('PUT', '/payment-merchants/eps/terminals/T9/payment-methods/CREDIT_CARD', {
        ...card,
        autoCapture: null,
      }),
      404,
      'OPS-NOT-FOUND',
    );
    expectRefusal(await op('GET', '/payment-merchants/nobody'), 404, 'OPS-NOT-FOUND');
    expectRefusal(
      await op('POST', '/payment-merchants', {
        merchantCode: 'eps',
        name: 'again',
        ipnUrl: 'https://x.example',
        maxIpnRetries: 1,
      }),
      409,
      'OPS-CONFLICT',
    );
    expectRefusal(
      await op('POST', '/payment-merchants/eps/terminals', { terminalId: 'T1', name: 'again' }),
      409,
      'OPS-CONFLICT',
    );
    const badUrl = await op('POST', '/payment-merchants', {
      merchantCode: 'zeta',
      name: 'Z',
      ipnUrl: 'ftp://x',
      maxIpnRetries: 1,
    });
    expect(badUrl.status).to.equal(400);
    expect(badUrl.body!.data).to.deep.equal({ field: 'ipnUrl' });
  });

  it('changes the IPN settings, recorded with who and when', async () => {
    await onboardMerchant(app.baseUrl, 'eta', ['T1']);
    const changed = expectOk(await op('PATCH', '/payment-merchants/eta', { maxIpnRetries: 8 }));
    expect(changed).to.deep.include({ maxIpnRetries: 8, ipnUrl: 'https://eta.example/ipn' });
    const last = (await app.container.store.readStream('paymentMerchant-eta')).at(-1)!;
    expect(last.type).to.equal('PaymentMerchantIpnChanged');
    expect(last.data).to.deep.include({ changedBy: 'alice', maxIpnRetries: 8 });
  });
});
