import { createHash } from 'node:crypto';
import {
  apiSpecification,
  existingStream,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  matching,
  satisfying,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { operatorHeaders } from '../support.js';

/** The order view's merchant keys over the operator API, in memory (docs/orders-keys.md, "Merchant keys"). */
const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now, lastIds: { orderMerchantKey: 6 } });
const post = (path: string, json: unknown): ApiRequest => ({
  method: 'POST',
  path: `/operator/v1${path}`,
  headers: operatorHeaders(),
  json,
});

const registered = {
  type: 'OrderMerchantRegistered',
  data: { merchantId: 'P001', name: 'Ô tô Hà Nội', registeredAt: now },
};

describe('Operator API: order view merchants and keys (fast)', () => {
  it('registers a merchant, attributed to the operator', () =>
    given()
      .when(post('/order-merchants', { merchant_id: 'P001', name: '  Ô tô Hà Nội ' }))
      .then(
        expectResponse(201, {
          body: matching({
            code: 'SUCCESS',
            data: { merchant_id: 'P001', name: 'Ô tô Hà Nội', registered_at: now, keys: [] },
          }),
        }),
        expectAppended({ 'orderMerchant-P001': [{ ...registered, metadata: { actor: { operator: 'alice' } } }] }),
      ));

  it('refuses a merchant id with a "-" (it would make order stream names ambiguous) naming the field, and appends nothing', () =>
    given()
      .when(post('/order-merchants', { merchant_id: 'P-001', name: 'x' }))
      .then(
        expectResponse(400, { body: matching({ code: 'OPS-REQ-001', data: { field: 'merchant_id' } }) }),
        expectNoNewEvents(),
      ));

  it('issues a key: the merchant event and the key lookup claimed in one append, no secret in either', () =>
    given(existingStream('orderMerchant-P001', [registered]))
      .when(post('/order-merchants/P001/keys', { environment: 'test' }))
      .then(
        expectResponse(201, {
          body: matching({
            code: 'SUCCESS',
            data: matching({
              key_id: 7,
              environment: 'test',
              api_key: /^ak_test_[A-Za-z0-9]{32}$/,
              secret_key: /^[A-Za-z0-9]{48}$/,
              rotated_from: null,
            }),
          }),
        }),
        expectAppended(({ response }) => {
          const { api_key: apiKey, secret_key: secretKey } = (response.body as { data: Record<string, string> }).data;
          const keyDigest = createHash('sha256').update(apiKey!).digest('hex');
          const withoutSecrets = (more: Record<string, unknown>) =>
            satisfying(
              (data) =>
                !JSON.stringify(data).includes(apiKey!) &&
                !JSON.stringify(data).includes(secretKey!) &&
                Object.entries(more).every(([k, v]) => (data as Record<string, unknown>)[k] === v),
              `holds neither secret in clear, and ${JSON.stringify(more)}`,
            );
          return {
            [`orderApiKey-${keyDigest}`]: [
              {
                type: 'OrderApiKeyClaimed',
                data: withoutSecrets({ merchantId: 'P001', keyId: 7, environment: 'test' }),
              },
            ],
            'orderMerchant-P001': [
              { type: 'OrderKeyIssued', data: withoutSecrets({ keyId: 7, keyDigest, prefix: apiKey!.slice(0, 12) }) },
            ],
          };
        }),
      ));
});
