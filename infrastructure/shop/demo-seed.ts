import { isDomainError } from '../../domain/shared/errors.js';
import { keepDemoCredentials, readDemoCredentials } from '../shared/demo-credentials.js';
import { systemClock, type Clock } from '../../application/shared/clock.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import type { DemoSeed } from '../shared/demo-seed.js';
import type { ShopConfig } from './config.js';
import type { CampaignAdmin, CategoryAdmin, MerchantAdmin, VoucherPoolAdmin } from '../../application/shop/index.js';
import {
  campaignInput,
  campaigns,
  categoryNames,
  cdn,
  day,
  defaultTerms,
  hour,
  iso,
  slug,
  type CategoryKey,
  type DemoCampaign,
} from './demo-catalog.js';

export interface DemoData {
  merchantId: string;
  apiKey: string;
  /** The running flash sale. */
  campaignId: number;
  /** The first pools of the flash sale, to try a purchase with. */
  pools: { id: number; title: string; sellingPrice: number; currency: string }[];
  /** Absent in files written by earlier versions of the seed. */
  catalog?: {
    flashSaleCampaignId: number;
    presaleCampaignId: number;
    campaignIds: number[];
    categoryIds: number[];
    poolCount: number;
  };
}

export interface DemoServices {
  merchants: MerchantAdmin;
  campaigns: CampaignAdmin;
  pools: VoucherPoolAdmin;
  categories: CategoryAdmin;
}

/** One context per command, each by the seed as operator. */
const asSeed = () => newCommandContext({ actor: { operator: 'demo-seed' } });
const merchantId = 'DEMO';

/**
 * Seeds, once, a demo merchant with an API key and a Vietnamese catalog:
 * categories; a flash sale ending in a few hours (countdown); hot deals for
 * food, travel, shopping and entertainment; a Tết campaign in presale (shown,
 * its vouchers on sale only from its start); a paused one (hidden); banners
 * for APP and WEB, CAROUSEL and DETAIL_TOP. Later starts read what was
 * seeded from `<dataDir>/demo-credentials.json` (the raw API key is shown
 * only once) and move the flash sale's and the presale's windows forward
 * when they have run out, so the countdown and the presale keep showing.
 */
export async function seedDemo(services: DemoServices, dataDir: string, clock: Clock = systemClock): Promise<DemoData> {
  const kept = readDemoCredentials(dataDir);
  // The shop's keys are the file's top level (the other seeds keep theirs under a key each).
  const saved = kept.apiKey ? (kept as unknown as DemoData) : undefined;
  const exists = await services.merchants.get(merchantId).then(
    () => true,
    (e: unknown) => {
      if (isDomainError(e) && e.code === 'MERCHANT_NOT_FOUND') return false;
      throw e;
    },
  );
  if (exists && saved) {
    if (saved.catalog) await refreshWindows(services.campaigns, saved.catalog, clock.now().getTime());
    return saved;
  }
  if (exists) {
    // Seeded before, credentials file lost: issue a fresh key for the demo merchant.
    const key = await services.merchants.issueApiKey(asSeed(), merchantId, {});
    const data = { ...(saved ?? { merchantId, campaignId: 0, pools: [] }), apiKey: key.key };
    keepDemoCredentials(dataDir, { ...data });
    return data;
  }

  const merchant = await services.merchants.register(asSeed(), { merchantId, name: 'Cửa hàng Demo' });
  const now = clock.now().getTime();
  const categoryIds = {} as Record<CategoryKey, number>;
  for (const [key, name] of Object.entries(categoryNames) as [CategoryKey, string][]) {
    categoryIds[key] = (await services.categories.create(asSeed(), { name })).id;
  }

  const campaignIds = {} as Record<DemoCampaign['key'], number>;
  const featured: DemoData['pools'] = [];
  let poolCount = 0;
  for (const c of campaigns) {
    const campaign = await services.campaigns.create(asSeed(), campaignInput(c, now));
    campaignIds[c.key] = campaign.id;
    for (const p of c.pools) {
      const brandArt = `${cdn}/brands/${slug(p.brand)}`;
      const pool = await services.pools.create(asSeed(), {
        campaignId: campaign.id,
        categoryId: categoryIds[p.category],
        miniAppIds: ['superapp-shop', `mini-${p.category}`],
        display: {
          title: p.title,
          shortTitle: p.shortTitle,
          brandName: p.brand,
          logoUrl: `${brandArt}/logo.png`,
          bannerUrl: `${brandArt}/banner.jpg`,
          thumbnailUrl: `${brandArt}/thumb.jpg`,
          description: p.description,
        },
        pricing: {
          faceValue: p.faceValue,
          sellingPrice: p.sellingPrice,
          // What the buyer pays, after the discount off face value (docs/shop-api.md, "Pricing").
          discountedPrice: p.sellingPrice < p.faceValue ? p.sellingPrice : null,
          currency: p.currency ?? 'VND',
        },
        totalQuantity: p.stock,
        terms: { ...defaultTerms, ...p.terms },
        validity:
          p.validForDays === undefined
            ? null
            : { startAt: iso(now + c.startIn), endAt: iso(now + p.validForDays * day) },
      });
      poolCount++;
      if (c.key === 'flash' && featured.length < 4 && p.stock > 0) {
        featured.push({
          id: pool.poolId,
          title: p.title,
          sellingPrice: p.sellingPrice,
          currency: pool.pricing.currency,
        });
      }
    }
    await services.campaigns.changeStatus(asSeed(), campaign.id, 'APPROVED');
    await services.campaigns.changeStatus(asSeed(), campaign.id, 'ACTIVE');
    if (c.status === 'PAUSED') await services.campaigns.changeStatus(asSeed(), campaign.id, 'PAUSED');
  }

  const data: DemoData = {
    merchantId,
    apiKey: merchant.apiKey.key,
    campaignId: campaignIds.flash,
    pools: featured,
    catalog: {
      flashSaleCampaignId: campaignIds.flash,
      presaleCampaignId: campaignIds.presale,
      campaignIds: Object.values(campaignIds),
      categoryIds: Object.values(categoryIds),
      poolCount,
    },
  };
  keepDemoCredentials(dataDir, { ...data });
  return data;
}

/** Moves a run-out flash sale to end in 3 hours again, and a started presale campaign back into presale. */
async function refreshWindows(
  campaigns: CampaignAdmin,
  catalog: NonNullable<DemoData['catalog']>,
  now: number,
): Promise<void> {
  const flash = await campaigns.get(catalog.flashSaleCampaignId);
  if (flash.status === 'ACTIVE' && Date.parse(flash.endAt) < now + hour) {
    await campaigns.updateDetails(asSeed(), flash.id, { startAt: iso(now - hour), endAt: iso(now + 3 * hour) });
  }
  const presale = await campaigns.get(catalog.presaleCampaignId);
  if (presale.status === 'ACTIVE' && presale.presale && Date.parse(presale.startAt) <= now) {
    await campaigns.updateDetails(asSeed(), presale.id, {
      startAt: iso(now + 2 * day),
      endAt: iso(now + 9 * day),
      presale: { ...presale.presale, startAt: iso(now - day) },
    });
  }
}

/** The shop's module seed (context-module.ts, `demo`): the catalog above, and the banner's lines. */
export const shopDemo: DemoSeed<DemoServices, ShopConfig> = async (services, demo) => {
  const data = await seedDemo(services, demo.config.DATA_DIR);
  return {
    lines: [
      `  X-Merchant-Id:        ${data.merchantId}`,
      `  X-Promotion-Api-Key:  ${data.apiKey}`,
      `  voucher pools:        ${data.pools.map((p) => `${p.id} (${p.title}, ${p.sellingPrice} ${p.currency})`).join(', ')}`,
      `  API:                  ${demo.shownAt}/api/v1`,
    ],
  };
};
