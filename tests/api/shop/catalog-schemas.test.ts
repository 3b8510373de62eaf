import SwaggerParser from '@apidevtools/swagger-parser';
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { expect } from 'chai';
import {
  campaignListQuery,
  carouselQuery,
  channelQuery,
  idParams,
  shopCampaignSchema,
  shopPage,
  shopVoucherSchema,
  voucherListQuery,
} from '../../../api/shop/catalog-schemas.js';
import { shopSuccess } from '../../../api/shop/schemas.js';

describe('Shop catalog schemas for the OpenAPI document', () => {
  it('describe endpoints 1, 2, 4, 5 and 6 in a valid OpenAPI 3.0 document, every query parameter optional', async () => {
    const registry = new OpenAPIRegistry();
    const ok = (schema: Parameters<typeof shopSuccess>[0]) => ({
      200: { description: 'ok', content: { 'application/json': { schema: shopSuccess(schema) } } },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/v1/vouchers',
      request: { query: voucherListQuery },
      responses: ok(shopPage(shopVoucherSchema)),
    });
    registry.registerPath({
      method: 'get',
      path: '/api/v1/vouchers/{id}',
      request: { params: idParams, query: channelQuery },
      responses: ok(shopVoucherSchema),
    });
    registry.registerPath({
      method: 'get',
      path: '/api/v1/campaigns/carousel',
      request: { query: carouselQuery },
      responses: ok(shopPage(shopCampaignSchema)),
    });
    registry.registerPath({
      method: 'get',
      path: '/api/v1/campaigns',
      request: { query: campaignListQuery },
      responses: ok(shopPage(shopCampaignSchema)),
    });
    registry.registerPath({
      method: 'get',
      path: '/api/v1/campaigns/{id}',
      request: { params: idParams, query: channelQuery },
      responses: ok(shopCampaignSchema),
    });
    const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
      openapi: '3.0.3',
      info: { title: 'catalog', version: '1' },
    });
    await SwaggerParser.validate(structuredClone(doc) as never);

    const list = doc.paths!['/api/v1/vouchers']!.get!;
    const parameters = (list.parameters ?? []) as { name: string; required?: boolean }[];
    expect(parameters.map((p) => p.name)).to.have.members([
      'tag',
      'tags',
      'categoryIds',
      'campaignIds',
      'excludeCampaignIds',
      'channel',
      'page',
      'size',
    ]);
    expect(parameters.filter((p) => p.required)).to.deep.equal([]);
    expect(Object.keys(doc.components!.schemas!)).to.include.members([
      'ShopVoucherResponse',
      'ShopCampaignResponse',
      'ShopCampaignBanner',
    ]);
  });
});
