import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  call,
  expectEnvelope,
  expectOk,
  expectRefusal,
  isoInstant,
  OperatorApi,
  Shopper,
  unique,
  type IssuedKeyData,
  type MerchantData,
  type ShopMerchant,
} from '../support.js';

describe('Operator API over HTTP: authentication, merchants and API keys', () => {
  let app: TestApp;
  let operator: OperatorApi;

  before(async () => {
    app = await startTestApp({ background: false });
    operator = new OperatorApi(app.baseUrl);
  });
  after(() => app?.stop());

  /** A shop call that needs valid credentials only: an unknown reservation is 404 SHOP-PUR-003 once authenticated. */
  const shopCallWith = (merchant: ShopMerchant) => new Shopper(app.baseUrl, merchant).lookup(randomUUID());

  describe('authentication', () => {
    it('refuses a call without a bearer token with 401 OPS-AUTH-001', async () => {
      const res = await call(app.baseUrl, 'GET', '/operator/v1/merchants/ANY');
      expectRefusal(res, 401, 'OPS-AUTH-001', /Bearer/);
    });

    it('refuses a wrong bearer token with 401 OPS-AUTH-001, before reading the body', async () => {
      const res = await new OperatorApi(app.baseUrl, 'mallory-token-0123456789abcdef').call('POST', '/merchants', {
        json: { merchantId: 'X', name: 'X' },
      });
      expectRefusal(res, 401, 'OPS-AUTH-001', /invalid/);
      expectRefusal(
        await call(app.baseUrl, 'GET', '/operator/v1/merchants/X', {
          headers: { Authorization: 'Basic YWxpY2U6cHc=' },
        }),
        401,
        'OPS-AUTH-001',
      );
    });
  });

  describe('merchants', () => {
    it('creates a merchant and shows its API key once: the GET lists the key without it', async () => {
      const merchantId = unique('M');
      const res = await operator.call<{ merchantId: string; name: string; apiKey: IssuedKeyData }>(
        'POST',
        '/merchants',
        {
          json: { merchantId, name: '  Cửa hàng Một  ' },
        },
      );
      const created = expectOk(res, 201);
      expect(created.merchantId).to.equal(merchantId);
      expect(created.name).to.equal('Cửa hàng Một');
      expect(created.apiKey.id).to.be.a('number');
      expect(created.apiKey.key).to.match(/^pk_live_[A-Za-z0-9_-]{40,}$/);
      expect(created.apiKey.key.startsWith(created.apiKey.prefix)).to.equal(true);
      expect(created.apiKey.expiresAt).to.equal(null);

      const read = await operator.call<MerchantData>('GET', `/merchants/${merchantId}`);
      const merchant = expectOk(read);
      expect(merchant).to.include({ merchantId, name: 'Cửa hàng Một' });
      expect(merchant.registeredAt).to.match(isoInstant);
      expect(merchant.apiKeys).to.have.length(1);
      expect(merchant.apiKeys[0]).to.have.all.keys('id', 'prefix', 'status', 'expiresAt', 'issuedAt', 'revokedAt');
      expect(merchant.apiKeys[0]).to.include({
        id: created.apiKey.id,
        prefix: created.apiKey.prefix,
        status: 'ACTIVE',
        revokedAt: null,
      });
      expect(read.text).not.to.include(created.apiKey.key);
      expect(read.text).not.to.include(created.apiKey.key.slice(created.apiKey.prefix.length));
    });

    it('refuses a second merchant with the same id with 409 OPS-CONFLICT', async () => {
      const { merchantId } = await operator.createMerchant();
      expectRefusal(
        await operator.call('POST', '/merchants', { json: { merchantId, name: 'Again' } }),
        409,
        'OPS-CONFLICT',
        new RegExp(merchantId),
      );
    });

    it('names the offending field of invalid input in data.field with 400 OPS-REQ-001', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ merchantId: 'has space', name: 'X' }, 'merchantId'],
        [{ name: 'X' }, 'merchantId'],
        [{ merchantId: unique('M'), name: '' }, 'name'],
        [{ merchantId: unique('M'), name: 'X', apiKeyExpiresAt: 'tomorrow' }, 'apiKeyExpiresAt'],
        [{ merchantId: unique('M'), name: 'X', apiKeyExpiresAt: '2001-01-01T00:00:00Z' }, 'apiKeyExpiresAt'],
      ];
      for (const [json, field] of cases) {
        const res = await operator.call('POST', '/merchants', { json });
        expect(expectEnvelope(res, 400, 'OPS-REQ-001'), JSON.stringify(json)).to.deep.equal({ field });
        expect(res.body!.message).to.include(field);
      }
    });

    it('answers malformed JSON with 400 OPS-REQ-001 and a non-JSON content type with 415', async () => {
      const malformed = await operator.call('POST', '/merchants', {
        rawBody: '{"merchantId": "M1", ',
        headers: { 'Content-Type': 'application/json' },
      });
      expectRefusal(malformed, 400, 'OPS-REQ-001', /JSON/);
      const text = await operator.call('POST', '/merchants', {
        rawBody: 'merchantId=M1',
        headers: { 'Content-Type': 'text/plain' },
      });
      expectRefusal(text, 415, 'OPS-REQ-415', /application\/json/);
    });

    it('answers a body in another charset or compressed with 415 OPS-REQ-415, and a malformed path with 400 OPS-REQ-001', async () => {
      const json = JSON.stringify({ merchantId: unique('M'), name: 'Latin' });
      expectRefusal(
        await operator.call('POST', '/merchants', {
          rawBody: json,
          headers: { 'Content-Type': 'application/json; charset=latin1' },
        }),
        415,
        'OPS-REQ-415',
      );
      expectRefusal(
        await operator.call('POST', '/merchants', {
          rawBody: json,
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br' },
        }),
        415,
        'OPS-REQ-415',
      );
      expectRefusal(await operator.call('GET', '/merchants/%ZZ'), 400, 'OPS-REQ-001', /path/);
      expectRefusal(await operator.call('GET', '/campaigns/%E0%A4%A'), 400, 'OPS-REQ-001', /path/);
    });

    it('answers an unknown merchant with 404 OPS-NOT-FOUND', async () => {
      expectRefusal(
        await operator.call('GET', '/merchants/NO-SUCH-MERCHANT'),
        404,
        'OPS-NOT-FOUND',
        /NO-SUCH-MERCHANT/,
      );
      expectRefusal(
        await operator.call('POST', '/merchants/NO-SUCH-MERCHANT/api-keys', { json: {} }),
        404,
        'OPS-NOT-FOUND',
      );
    });
  });

  describe('API keys', () => {
    it('issues a second key that works at once, shown once', async () => {
      const merchant = await operator.createMerchant();
      const res = await operator.call<IssuedKeyData>('POST', `/merchants/${merchant.merchantId}/api-keys`, {
        json: { expiresAt: '2099-01-01T00:00:00+07:00' },
      });
      const issued = expectOk(res, 201);
      expect(issued.key).to.match(/^pk_live_/);
      expect(issued.key).not.to.equal(merchant.apiKey);
      expect(issued.expiresAt).to.equal('2098-12-31T17:00:00.000Z');

      expectRefusal(await shopCallWith({ ...merchant, apiKey: issued.key, apiKeyId: issued.id }), 404, 'SHOP-PUR-003');
      const listed = expectOk(await operator.call<MerchantData>('GET', `/merchants/${merchant.merchantId}`));
      expect(listed.apiKeys.map((k) => k.id)).to.deep.equal([merchant.apiKeyId, issued.id]);
    });

    it('revokes a key: the shop refuses it with 401 SHOP-AUTH-002 while the other key still works; revoking again changes nothing', async () => {
      const merchant = await operator.createMerchant();
      const second = expectOk(
        await operator.call<IssuedKeyData>('POST', `/merchants/${merchant.merchantId}/api-keys`, { json: {} }),
        201,
      );
      expectRefusal(await shopCallWith(merchant), 404, 'SHOP-PUR-003');

      const revoked = expectOk(
        await operator.call<MerchantData['apiKeys'][number]>(
          'POST',
          `/merchants/${merchant.merchantId}/api-keys/${merchant.apiKeyId}/revoke`,
        ),
      );
      expect(revoked).to.include({ id: merchant.apiKeyId, status: 'REVOKED' });
      expect(revoked.revokedAt).to.match(isoInstant);

      expectRefusal(await shopCallWith(merchant), 401, 'SHOP-AUTH-002', /revoked/);
      expectRefusal(await shopCallWith({ ...merchant, apiKey: second.key, apiKeyId: second.id }), 404, 'SHOP-PUR-003');

      const again = expectOk(
        await operator.call<MerchantData['apiKeys'][number]>(
          'POST',
          `/merchants/${merchant.merchantId}/api-keys/${merchant.apiKeyId}/revoke`,
        ),
      );
      expect(again).to.deep.equal(revoked);
    });

    it('answers an unknown key id with 404 OPS-NOT-FOUND and a non-numeric one with 400 OPS-REQ-001', async () => {
      const merchant = await operator.createMerchant();
      expectRefusal(
        await operator.call('POST', `/merchants/${merchant.merchantId}/api-keys/999999999/revoke`),
        404,
        'OPS-NOT-FOUND',
      );
      expectRefusal(
        await operator.call('POST', `/merchants/${merchant.merchantId}/api-keys/abc/revoke`),
        400,
        'OPS-REQ-001',
        /apiKeyId/,
      );
      expectRefusal(
        await operator.call('POST', `/merchants/${merchant.merchantId}/api-keys/1.5/revoke`),
        400,
        'OPS-REQ-001',
        /apiKeyId/,
      );
    });
  });
});
