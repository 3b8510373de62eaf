import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import type { Router } from 'express';
import type { z } from 'zod';
import { gatewayOperatorRouter } from '../../api/gateway/index.js';
import { checkoutOperatorRouter } from '../../api/checkout/index.js';
import { orderPortalRouter, ordersOperatorRouter } from '../../api/orders/index.js';
import { identityOperatorRouter } from '../../api/identity/index.js';
import { buildOpenApiDocument } from '../../api/shared/openapi.js';
import { openApi } from '../../container.js';
import { campaignSchema, merchantSchemas, operatorSuccess, poolSchema } from '../../api/shop/operator-schemas.js';
import { operatorRouter } from '../../api/shop/operator-router.js';
import { paymentsOperatorRouter } from '../../api/payments/operator-router.js';
import { purchaseRouter } from '../../api/shop/purchase-router.js';
import { committedData, releasedData, reservationData, reservedData, shopSuccess } from '../../api/shop/schemas.js';
import { createLogger } from '../../infrastructure/shared/logger.js';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  call,
  campaignInput,
  expectEnvelope,
  OperatorApi,
  poolInput,
  reserveBody,
  Shopper,
  unique,
  type HttpResult,
} from './support.js';

/** The parts of an OpenAPI 3.0 document these tests read. */
interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: { properties?: { code?: { enum?: string[] } } } }> }
  >;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];

/** "METHOD /path/{param}" of every route a router declares, under the prefix it is mounted at (container.ts). */
function routesOf(prefix: string, router: Router): string[] {
  return router.stack.flatMap((layer) => {
    const route = layer.route;
    if (!route) return [];
    const path = prefix + route.path.replace(/:(\w+)/g, '{$1}');
    return [...new Set(route.stack.map((l) => l.method.toUpperCase()))].map((method) => `${method} ${path}`);
  });
}

/** "METHOD /path" and the operation of every documented operation whose tag starts with `tagPrefix`. */
function operationsOf(doc: Document, tagPrefix: string): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    methods
      .filter((m) => item[m]?.tags?.some((t) => t.startsWith(tagPrefix)))
      .map((m): [string, Operation] => [`${m.toUpperCase()} ${path}`, item[m]!]),
  );
}

const codesOf = (operation: Operation, status: number) =>
  operation.responses[status]?.content?.['application/json']?.schema.properties?.code?.enum ?? [];

describe('OpenAPI document and /docs', () => {
  let app: TestApp;
  let doc: Document;

  before(async () => {
    app = await startTestApp({ background: false });
    const res = await call(app.baseUrl, 'GET', '/openapi.json');
    expect(res.status).to.equal(200);
    doc = JSON.parse(res.text) as Document;
  });
  after(() => app?.stop());

  const operation = (key: string) => {
    const [method, path] = key.split(' ') as [string, string];
    const op = doc.paths[path]?.[method.toLowerCase()];
    expect(op, `${key} is documented`).to.be.an('object');
    return op!;
  };

  describe('the document', () => {
    it('is served at /openapi.json as generated from the schemas', () => {
      expect(doc).to.deep.equal(JSON.parse(JSON.stringify(buildOpenApiDocument(openApi))));
    });

    it('documents the catalog endpoints 1 to 6 with their query parameters and the catalog error codes', () => {
      for (const key of [
        'GET /api/v1/vouchers',
        'GET /api/v1/vouchers/{id}',
        'GET /api/v1/vouchers/search',
        'GET /api/v1/campaigns/carousel',
        'GET /api/v1/campaigns',
        'GET /api/v1/campaigns/{id}',
      ]) {
        const op = operation(key) as {
          tags: string[];
          parameters: { name: string; in: string }[];
          responses: Record<string, unknown>;
        };
        expect(op.tags).to.deep.equal(['Shop: catalog']);
        expect(op.parameters.filter((p) => p.in === 'query').map((p) => p.name)).to.include('channel');
        expect(op.responses).to.include.keys('200', '400', '401', '403');
      }
      const search = operation('GET /api/v1/vouchers/search') as {
        parameters: { name: string }[];
        responses: Record<string, { description: string }>;
      };
      expect(search.parameters.map((p) => p.name)).to.include.members(['q', 'tag', 'page', 'size']);
      expect(search.responses['400']!.description).to.include('SHOP-VOU-002');
      expect(
        (operation('GET /api/v1/campaigns/{id}') as { responses: Record<string, { description: string }> }).responses[
          '404'
        ]!.description,
      ).to.include('SHOP-CAM-001');
    });

    it('is a valid OpenAPI 3.0 document (schema and $refs)', async () => {
      expect(doc.openapi).to.match(/^3\.0\./);
      await SwaggerParser.validate(structuredClone(doc) as never);
    });

    it('documents exactly the routes of the purchase and operator routers, with their methods', () => {
      const { container } = app;
      const shop = routesOf(
        '/api/v1',
        purchaseRouter({
          purchases: container.services.shop.purchases,
          credentials: container.services.shop.credentials,
        }),
      );
      const operator = [
        ...routesOf(
          '/operator/v1',
          operatorRouter({
            logger: createLogger('error'),
            merchants: container.services.shop.merchants,
            campaigns: container.services.shop.campaigns,
            categories: container.services.shop.categories,
            pools: container.services.shop.pools,
          }),
        ),
        ...routesOf(
          '/operator/v1',
          checkoutOperatorRouter({
            logger: createLogger('error'),
            promotionMasters: container.services.checkout.promotionMasters,
            wallet: container.services.checkout.wallet,
          }),
        ),
        ...routesOf(
          '/operator/v1',
          identityOperatorRouter({ logger: createLogger('error'), ...container.services.identity }),
        ),
        ...routesOf(
          '/operator/v1',
          gatewayOperatorRouter({ logger: createLogger('error'), parties: container.services.gateway.parties }),
        ),
        ...routesOf(
          '/operator/v1',
          ordersOperatorRouter({ logger: createLogger('error'), merchants: container.services.orders.merchants }),
        ),
        ...routesOf(
          '/operator/v1',
          orderPortalRouter({ logger: createLogger('error'), queries: container.services.orders.queries }),
        ),
        ...routesOf(
          '/operator/v1',
          paymentsOperatorRouter({ logger: createLogger('error'), services: container.services.payments }),
        ),
      ];
      expect(shop).to.have.length(4);
      expect(operator).to.have.length.of.at.least(12);
      expect(operationsOf(doc, 'Shop: purchase').map(([key]) => key)).to.have.members(shop);
      expect(operationsOf(doc, 'Operator:').map(([key]) => key)).to.have.members(operator);
    });

    it('declares every path parameter, and a JSON request body for every POST that reads one', () => {
      for (const [key, op] of [...operationsOf(doc, 'Shop: purchase'), ...operationsOf(doc, 'Operator:')]) {
        for (const [, name] of key.matchAll(/\{(\w+)\}/g)) {
          expect(
            op.parameters?.find((p) => p.in === 'path' && p.name === name),
            `${key}: path parameter ${name}`,
          ).to.include({ required: true });
        }
        // Revoking a key, rotating a secret and resending IPNs read no body.
        if (key.startsWith('POST') && !/\/(revoke|secret|resend|resend-exhausted)$/.test(key))
          expect(op.requestBody?.content, key).to.have.key('application/json');
      }
    });

    it('gives the gateway and shop headers as apiKey-in-header schemes and the operator token as a bearer scheme', () => {
      expect(doc.components.securitySchemes.clientId).to.include({ type: 'apiKey', in: 'header', name: 'client_id' });
      expect((doc.components.securitySchemes.clientId as { description?: string }).description).to.match(
        /gateway client id/,
      );
      const headerNames = Object.values(doc.components.securitySchemes)
        .filter((s) => s.type === 'apiKey' && s.in === 'header')
        .map((s) => s.name);
      expect(headerNames).to.have.members([
        'client_id',
        'client_secret',
        'X-Promotion-Api-Key',
        'X-Merchant-Id',
        'X-Payment-API-Key',
      ]);
      expect(doc.components.securitySchemes.operatorToken).to.include({ type: 'http', scheme: 'bearer' });
    });

    it('gives every shop purchase operation its credentials, headers and error statuses with their codes', () => {
      for (const [key, op] of operationsOf(doc, 'Shop: purchase')) {
        expect(op.security, key).to.deep.equal([
          { clientId: [], clientSecret: [], promotionApiKey: [], merchantId: [] },
        ]);
        const headers = (op.parameters ?? []).filter((p) => p.in === 'header' && p.required).map((p) => p.name);
        expect(headers, key).to.include.members(['X-Request-Id', 'X-User-Id']);
        expect(codesOf(op, 400), key).to.include('SHOP-REQ-001');
        expect(codesOf(op, 401), key).to.have.members(['SHOP-AUTH-001', 'SHOP-AUTH-002', 'SHOP-AUTH-003']);
        expect(codesOf(op, 403), key).to.deep.equal([
          'SHOP-AUTH-004',
          'SHOP-AUTH-005',
          'SHOP-AUTH-006',
          'SHOP-AUTH-007',
        ]);
        expect(codesOf(op, 429), key).to.deep.equal(['SHOP-REQ-429']);
        expect(codesOf(op, 500), key).to.deep.equal(['SHOP-SYS-500']);
        if (key.startsWith('POST')) {
          expect(codesOf(op, 413), key).to.deep.equal(['SHOP-REQ-413']);
          expect(codesOf(op, 415), key).to.deep.equal(['SHOP-REQ-415']);
        }
      }
      const reserve = operation('POST /api/v1/vouchers/reserve');
      expect(reserve.parameters!.find((p) => p.name === 'X-Idempotency-Key')).to.include({
        in: 'header',
        required: true,
      });
      // The spec's error table per endpoint (000, endpoints 7 to 10).
      const spec: [string, number, string[]][] = [
        [
          'POST /api/v1/vouchers/reserve',
          400,
          ['SHOP-PUR-001', 'SHOP-PUR-012', 'SHOP-PUR-014', 'SHOP-PUR-015', 'SHOP-PUR-016'],
        ],
        ['POST /api/v1/vouchers/reserve', 404, ['SHOP-VOU-001']],
        ['POST /api/v1/vouchers/reserve', 409, ['SHOP-PUR-011']],
        ['POST /api/v1/vouchers/commit', 400, ['SHOP-PUR-006']],
        ['POST /api/v1/vouchers/commit', 404, ['SHOP-PUR-003']],
        ['POST /api/v1/vouchers/release', 400, ['SHOP-PUR-007', 'SHOP-PUR-006']],
        ['POST /api/v1/vouchers/release', 404, ['SHOP-PUR-003']],
        ['GET /api/v1/vouchers/reservation/{key}', 404, ['SHOP-PUR-003']],
      ];
      for (const [key, status, codes] of spec)
        expect(codesOf(operation(key), status), `${key} ${status}`).to.include.members(codes);
    });

    it('gives every operator operation its token, error statuses and codes', () => {
      for (const [key, op] of operationsOf(doc, 'Operator:')) {
        expect(op.security, key).to.deep.equal([{ operatorToken: [] }]);
        expect(codesOf(op, 401), key).to.deep.equal(['OPS-AUTH-001']);
        expect(codesOf(op, 500), key).to.deep.equal(['OPS-SYS-500']);
        if (op.requestBody) {
          expect(codesOf(op, 400), key).to.deep.equal(['OPS-REQ-001']);
          expect(codesOf(op, 413), key).to.deep.equal(['OPS-REQ-413']);
          expect(codesOf(op, 415), key).to.deep.equal(['OPS-REQ-415']);
        }
        if (key.includes('{')) {
          expect(codesOf(op, 400), key).to.deep.equal(['OPS-REQ-001']);
          expect(codesOf(op, 404), key).to.deep.equal(['OPS-NOT-FOUND']);
        }
      }
      for (const key of [
        'POST /operator/v1/merchants',
        'POST /operator/v1/campaigns',
        'POST /operator/v1/campaigns/{campaignId}/status',
      ]) {
        expect(codesOf(operation(key), 409), key).to.deep.equal(['OPS-CONFLICT']);
      }
    });
  });

  describe('the answers match the document', () => {
    /** The status is documented for the operation, its code is one the document lists, and a success body is exactly the documented schema. */
    function expectDocumented(key: string, res: HttpResult, success?: z.ZodTypeAny): void {
      const op = operation(key);
      expect(op.responses, `${key} answered ${res.status}: ${res.text}`).to.have.property(String(res.status));
      if (res.status < 300) {
        expect(codesOf(op, res.status)).to.deep.equal(['SUCCESS']);
        // Parsing strips undocumented keys and fills documented defaults: equality means the body is exactly the documented shape.
        expect(success!.parse(res.body), key).to.deep.equal(res.body);
      } else {
        expect(codesOf(op, res.status), `${key} ${res.status}`).to.include(res.body!.code);
      }
    }

    it('operator API: merchants, keys, campaigns and pools, including refusals', async () => {
      const operator = new OperatorApi(app.baseUrl);
      const merchantId = unique('M');
      const registered = await operator.call<{ apiKey: { id: number } }>('POST', '/merchants', {
        json: { merchantId, name: 'Docs' },
      });
      expectDocumented('POST /operator/v1/merchants', registered, operatorSuccess(merchantSchemas.registered));
      expectDocumented(
        'POST /operator/v1/merchants',
        await operator.call('POST', '/merchants', { json: { merchantId, name: 'Docs' } }),
      );
      expectDocumented(
        'GET /operator/v1/merchants/{merchantId}',
        await operator.call('GET', `/merchants/${merchantId}`),
        operatorSuccess(merchantSchemas.merchant),
      );
      expectDocumented('GET /operator/v1/merchants/{merchantId}', await operator.call('GET', '/merchants/NO-SUCH'));
      expectDocumented(
        'POST /operator/v1/merchants/{merchantId}/api-keys',
        await operator.call('POST', `/merchants/${merchantId}/api-keys`, { json: { expiresAt: null } }),
        operatorSuccess(merchantSchemas.issuedApiKey),
      );
      expectDocumented(
        'POST /operator/v1/merchants/{merchantId}/api-keys/{apiKeyId}/revoke',
        await operator.call('POST', `/merchants/${merchantId}/api-keys/${registered.body!.data.apiKey.id}/revoke`),
        operatorSuccess(merchantSchemas.apiKey),
      );

      const banner = {
        channelCode: 'APP',
        positionCode: 'CAROUSEL',
        assetUrl: 'https://cdn.example.vn/b.png',
        assetType: 'IMAGE',
        altText: 'Sale',
        displayOrder: 1,
      };
      const presale = {
        enabled: true,
        startAt: '2025-12-01T00:00:00Z',
        countdownEnabled: true,
        teaserText: 'Soon',
        teaserImageUrl: 'https://cdn.example.vn/t.png',
      };
      const created = await operator.call<{ id: number }>('POST', '/campaigns', {
        json: campaignInput({ presale, banners: [banner] }),
      });
      expectDocumented('POST /operator/v1/campaigns', created, operatorSuccess(campaignSchema));
      const campaignId = created.body!.data.id;
      expectDocumented(
        'GET /operator/v1/campaigns/{campaignId}',
        await operator.call('GET', `/campaigns/${campaignId}`),
        operatorSuccess(campaignSchema),
      );
      const status = (value: string) =>
        operator.call('POST', `/campaigns/${campaignId}/status`, { json: { status: value } });
      expectDocumented('POST /operator/v1/campaigns/{campaignId}/status', await status('ACTIVE'));
      expectDocumented(
        'POST /operator/v1/campaigns/{campaignId}/status',
        await status('APPROVED'),
        operatorSuccess(campaignSchema),
      );
      expectDocumented(
        'POST /operator/v1/campaigns/{campaignId}/status',
        await status('ACTIVE'),
        operatorSuccess(campaignSchema),
      );

      const pool = await operator.call<{ poolId: number }>('POST', '/voucher-pools', { json: poolInput(campaignId) });
      expectDocumented('POST /operator/v1/voucher-pools', pool, operatorSuccess(poolSchema));
      const poolId = pool.body!.data.poolId;
      expectDocumented(
        'POST /operator/v1/voucher-pools',
        await operator.call('POST', '/voucher-pools', { json: poolInput(campaignId, { totalQuantity: -1 }) }),
      );
      expectDocumented(
        'GET /operator/v1/voucher-pools/{poolId}',
        await operator.call('GET', `/voucher-pools/${poolId}`),
        operatorSuccess(poolSchema),
      );
      expectDocumented('GET /operator/v1/voucher-pools/{poolId}', await operator.call('GET', '/voucher-pools/x'));
      expectDocumented(
        'POST /operator/v1/voucher-pools/{poolId}/stock',
        await operator.call('POST', `/voucher-pools/${poolId}/stock`, { json: { quantity: 5 } }),
        operatorSuccess(poolSchema),
      );
      expectDocumented(
        'POST /operator/v1/voucher-pools/{poolId}/pricing',
        await operator.call('POST', `/voucher-pools/${poolId}/pricing`, {
          json: { faceValue: 100_000, sellingPrice: 80_000, discountedPrice: null, currency: 'VND' },
        }),
        operatorSuccess(poolSchema),
      );
      expectDocumented(
        'POST /operator/v1/voucher-pools/{poolId}/pricing',
        await operator.call('POST', `/voucher-pools/${poolId}/pricing`, {
          rawBody: 'faceValue=1',
          headers: { 'Content-Type': 'text/plain' },
        }),
      );
      expectDocumented(
        'DELETE /operator/v1/voucher-pools/{poolId}',
        await operator.call('DELETE', `/voucher-pools/${poolId}`),
        operatorSuccess(poolSchema),
      );
      expectDocumented(
        'DELETE /operator/v1/voucher-pools/{poolId}',
        await operator.call('DELETE', `/voucher-pools/${poolId}`),
      );
      expectDocumented(
        'GET /operator/v1/campaigns/{campaignId}',
        await call(app.baseUrl, 'GET', `/operator/v1/campaigns/${campaignId}`),
      );
    });

    it('shop purchase flow: reserve, lookup, commit, release, including refusals', async () => {
      const operator = new OperatorApi(app.baseUrl);
      const merchant = await operator.createMerchant();
      const campaign = await operator.createActiveCampaign();
      const pool = await operator.createPool(campaign.id, { totalQuantity: 10 });
      const buyer = new Shopper(app.baseUrl, merchant);

      const first = await buyer.reserve(reserveBody([{ pool, quantity: 2 }]));
      expectDocumented('POST /api/v1/vouchers/reserve', first, shopSuccess(reservedData));
      expectDocumented('POST /api/v1/vouchers/reserve', await buyer.reserve(reserveBody([{ pool, quantity: 20 }])));
      expectDocumented(
        'POST /api/v1/vouchers/reserve',
        await buyer.reserve(reserveBody([{ pool }], first.body!.data.orderId)),
      );
      expectDocumented(
        'POST /api/v1/vouchers/reserve',
        await buyer.reserve(reserveBody([{ pool }]), { headers: { 'X-Merchant-Id': 'SOMEONE-ELSE' } }),
      );
      const key = first.body!.data.reservationKey;
      expectDocumented('GET /api/v1/vouchers/reservation/{key}', await buyer.lookup(key), shopSuccess(reservationData));
      expectDocumented('POST /api/v1/vouchers/commit', await buyer.commit(key), shopSuccess(committedData));
      expectDocumented('POST /api/v1/vouchers/commit', await buyer.commit(key));
      expectDocumented('POST /api/v1/vouchers/release', await buyer.release(key));
      expectDocumented('GET /api/v1/vouchers/reservation/{key}', await buyer.lookup(key), shopSuccess(reservationData));

      const second = (await buyer.reserve(reserveBody([{ pool }]))).body!.data.reservationKey;
      expectDocumented(
        'POST /api/v1/vouchers/release',
        await buyer.release(second, 'USER_CANCELLED'),
        shopSuccess(releasedData),
      );
      expectDocumented(
        'GET /api/v1/vouchers/reservation/{key}',
        await buyer.lookup(second),
        shopSuccess(reservationData),
      );
      expectDocumented('GET /api/v1/vouchers/reservation/{key}', await buyer.lookup('not-a-uuid'));
      expectDocumented(
        'GET /api/v1/vouchers/reservation/{key}',
        await new Shopper(app.baseUrl, merchant).lookup(second),
      );
    });
  });

  describe('the operator router checks bodies with the documented schemas', () => {
    const expectField = async (res: Promise<HttpResult>, field: string, message: RegExp) => {
      const answer = await res;
      expect(expectEnvelope(answer, 400, 'OPS-REQ-001'), answer.text).to.deep.equal({ field });
      expect(answer.body!.message).to.match(message);
    };

    it('refuses a wrong type or a missing field with 400 OPS-REQ-001, naming the field as the services do', async () => {
      const operator = new OperatorApi(app.baseUrl);
      const campaign = await operator.createActiveCampaign();
      const pool = await operator.createPool(campaign.id);
      const merchant = await operator.createMerchant();
      const banner = {
        channelCode: 'APP',
        positionCode: 'CAROUSEL',
        assetUrl: 'https://cdn.example.vn/b.png',
        assetType: 'IMAGE',
        altText: '',
        displayOrder: '1',
      };

      await expectField(
        operator.call('POST', '/merchants', { json: { merchantId: 42, name: 'X' } }),
        'merchantId',
        /^merchantId: Expected string, received number$/,
      );
      await expectField(
        operator.call('POST', `/merchants/${merchant.merchantId}/api-keys`, { json: { expiresAt: 5 } }),
        'expiresAt',
        /expiresAt/,
      );
      await expectField(
        operator.call('POST', '/campaigns', { json: campaignInput({ banners: [banner] }) }),
        'banners[0].displayOrder',
        /banners\[0\]\.displayOrder/,
      );
      await expectField(
        operator.call('POST', '/campaigns', { json: campaignInput({ presale: { enabled: 'yes' } }) }),
        'presale.enabled',
        /presale\.enabled/,
      );
      await expectField(
        operator.call('POST', `/campaigns/${campaign.id}/status`, { json: { status: 5 } }),
        'status',
        /status/,
      );
      await expectField(
        operator.call('POST', `/voucher-pools/${pool.poolId}/stock`, { json: { quantity: '5' } }),
        'quantity',
        /quantity/,
      );
      await expectField(
        operator.call('POST', `/voucher-pools/${pool.poolId}/stock`, { json: { quantity: 1.5 } }),
        'quantity',
        /integer/,
      );
      const { currency: _currency, ...withoutCurrency } = pool.pricing;
      await expectField(
        operator.call('POST', `/voucher-pools/${pool.poolId}/pricing`, { json: withoutCurrency }),
        'pricing.currency',
        /^pricing\.currency is required$/,
      );
      await expectField(
        operator.call('POST', '/voucher-pools', { json: { ...poolInput(campaign.id), miniAppIds: ['a', 7] } }),
        'miniAppIds[1]',
        /miniAppIds\[1\]/,
      );
      expect(await operator.pool(pool.poolId)).to.deep.equal(pool);
    });
  });

  describe('/docs', () => {
    it('serves the browsable UI as HTML, with its assets from the npm package and this document in its init script', async () => {
      const redirect = await fetch(`${app.baseUrl}/docs`, { redirect: 'manual' });
      expect(redirect.status).to.be.oneOf([301, 302]);
      expect(redirect.headers.get('location')).to.equal('/docs/');

      const page = await call(app.baseUrl, 'GET', '/docs/');
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).to.include('<div id="swagger-ui"></div>').and.include('./swagger-ui-bundle.js');

      const bundle = await call(app.baseUrl, 'GET', '/docs/swagger-ui-bundle.js');
      expect(bundle.status).to.equal(200);
      expect(bundle.headers.get('content-type')).to.match(/javascript/);
      const css = await call(app.baseUrl, 'GET', '/docs/swagger-ui.css');
      expect(css.status).to.equal(200);

      const init = await call(app.baseUrl, 'GET', '/docs/swagger-ui-init.js');
      expect(init.status).to.equal(200);
      expect(init.text).to.include('"operationId": "reserveVouchers"');
    });
  });
});
