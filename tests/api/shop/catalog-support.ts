/**
 * Helpers for the catalog API tests: waiting for the projections, the
 * catalog GET calls, and the operator steps that set a catalog up.
 */
import type { ShopCampaignResponse, ShopVoucherResponse, Page } from '../../../application/shop/catalog-queries.js';
import { shopCampaignSchema, shopPage, shopVoucherSchema } from '../../../api/shop/catalog-schemas.js';
import type { TestApp } from '../../support/app.js';
import { checkpointsCaughtUp } from '../../support/projections-caught-up.js';
import {
  call,
  campaignInput,
  expectOk,
  poolInput,
  shopHeaders,
  type CampaignData,
  type HttpResult,
  type OperatorApi,
  type PoolData,
  type ShopMerchant,
} from '../support.js';

export type VoucherPage = Page<ShopVoucherResponse>;
export type CampaignPage = Page<ShopCampaignResponse>;

/**
 * Waits until every projector has applied every event stored so far, so a
 * read after it sees all earlier commands, and the absence of a row means
 * something. Times out after `timeoutMs`.
 */
export async function projectionsCaughtUp(app: TestApp, timeoutMs = 30_000): Promise<void> {
  await checkpointsCaughtUp(app.container.knex, app.container.projectorEventTypes(), 1, timeoutMs);
}

/** The catalog's GET endpoints as one merchant (and optionally one user) calls them. */
export class CatalogClient {
  constructor(
    readonly app: TestApp,
    readonly merchant: ShopMerchant,
  ) {}

  get<T>(path: string, userId?: string): Promise<HttpResult<T>> {
    return call<T>(this.app.baseUrl, 'GET', `/api/v1${path}`, { headers: shopHeaders(this.merchant, userId) });
  }

  /** GET after the projections caught up; asserts 200 SUCCESS and answers data. */
  async ok<T>(path: string, userId?: string): Promise<T> {
    await projectionsCaughtUp(this.app);
    return expectOk(await this.get<T>(path, userId));
  }

  /** A voucher page, checked against the ShopVoucherResponse schema (every field, nothing more). */
  async vouchers(query = '', userId?: string): Promise<VoucherPage> {
    const page = await this.ok<VoucherPage>(`/vouchers${query}`, userId);
    shopPage(shopVoucherSchema).parse(page);
    return page;
  }

  /** The pool ids of a voucher page, in order. */
  async voucherIds(query = ''): Promise<number[]> {
    return (await this.vouchers(query)).content.map((v) => v.id);
  }

  /** A campaign page, checked against the ShopCampaignResponse schema. */
  async campaigns(query = ''): Promise<CampaignPage> {
    const page = await this.ok<CampaignPage>(`/campaigns${query}`);
    shopPage(shopCampaignSchema).parse(page);
    return page;
  }

  async carousel(query = ''): Promise<CampaignPage> {
    const page = await this.ok<CampaignPage>(`/campaigns/carousel${query}`);
    shopPage(shopCampaignSchema).parse(page);
    return page;
  }
}

/** Creates a campaign (DRAFT) and walks it through `statuses`, e.g. ['APPROVED', 'ACTIVE', 'PAUSED']. */
export async function campaignIn(
  operator: OperatorApi,
  statuses: string[],
  overrides: Record<string, unknown> = {},
): Promise<CampaignData> {
  let campaign = expectOk(
    await operator.call<CampaignData>('POST', '/campaigns', { json: campaignInput(overrides) }),
    201,
  );
  for (const status of statuses)
    campaign = expectOk(
      await operator.call<CampaignData>('POST', `/campaigns/${campaign.id}/status`, { json: { status } }),
    );
  return campaign;
}

export const live = ['APPROVED', 'ACTIVE'];

export function banner(
  channelCode: 'APP' | 'WEB',
  positionCode: 'CAROUSEL' | 'DETAIL_TOP',
  displayOrder: number,
  clickUrl: string | null = null,
) {
  return {
    channelCode,
    positionCode,
    assetUrl: `https://cdn.example.vn/${channelCode.toLowerCase()}-${positionCode.toLowerCase()}-${displayOrder}.png`,
    assetType: 'IMAGE',
    altText: `${channelCode} ${positionCode} ${displayOrder}`,
    clickUrl,
    displayOrder,
  };
}

export interface PoolOverrides {
  categoryId?: number;
  title?: string;
  miniAppIds?: string[];
  pricing?: Partial<PoolData['pricing']>;
  terms?: Partial<PoolData['terms']>;
  totalQuantity?: number;
  validity?: { startAt: string; endAt: string } | null;
}

/** Creates a pool in the campaign through the operator API. */
export async function poolIn(
  operator: OperatorApi,
  campaignId: number,
  overrides: PoolOverrides = {},
): Promise<PoolData> {
  const base = poolInput(campaignId, {
    pricing: overrides.pricing,
    terms: overrides.terms,
    totalQuantity: overrides.totalQuantity,
  });
  const json = {
    ...base,
    categoryId: overrides.categoryId ?? base.categoryId,
    miniAppIds: overrides.miniAppIds ?? base.miniAppIds,
    display: { ...base.display, title: overrides.title ?? base.display.title },
    validity: overrides.validity ?? null,
  };
  return expectOk(await operator.call<PoolData>('POST', '/voucher-pools', { json }), 201);
}
