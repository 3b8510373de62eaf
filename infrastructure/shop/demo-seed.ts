import fs from 'node:fs';
import path from 'node:path';
import { isDomainError } from '../../domain/shared/errors.js';
import type { CampaignAdmin } from '../../application/shop/campaign-admin.js';
import type { MerchantAdmin } from '../../application/shop/merchant-admin.js';
import type { VoucherPoolAdmin } from '../../application/shop/voucher-pool-admin.js';

export interface DemoData {
  merchantId: string;
  apiKey: string;
  campaignId: number;
  pools: { id: number; title: string; sellingPrice: number; currency: string }[];
}

const operator = 'demo-seed';
const merchantId = 'DEMO';

/**
 * Seeds a demo merchant with an API key, an active SELL campaign and a few
 * voucher pools, once; later starts read what was seeded from
 * `<dataDir>/demo-credentials.json` (the raw API key is shown only once).
 */
export async function seedDemo(services: { merchants: MerchantAdmin; campaigns: CampaignAdmin; pools: VoucherPoolAdmin }, dataDir: string): Promise<DemoData> {
  const file = path.resolve(dataDir, 'demo-credentials.json');
  const saved = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DemoData) : undefined;
  const exists = await services.merchants.get(merchantId).then(
    () => true,
    (e: unknown) => {
      if (isDomainError(e) && e.code === 'MERCHANT_NOT_FOUND') return false;
      throw e;
    },
  );
  if (exists && saved) return saved;
  if (exists) {
    // Seeded before, credentials file lost: issue a fresh key for the demo merchant.
    const key = await services.merchants.issueApiKey(operator, merchantId, {});
    const data = { ...(saved ?? { merchantId, campaignId: 0, pools: [] }), apiKey: key.key };
    fs.writeFileSync(file, JSON.stringify(data, null, 2), { mode: 0o600 });
    return data;
  }

  const merchant = await services.merchants.register(operator, { merchantId, name: 'Cửa hàng Demo' });
  const now = Date.now();
  const campaign = await services.campaigns.create(operator, {
    code: 'DEMO-FLASH-SALE',
    name: 'Flash Sale cuối tuần – khuyến mãi điện thoại',
    description: 'Ưu đãi giới hạn: voucher giảm giá điện thoại, ẩm thực và di chuyển.',
    campaignTag: 'FLASH_SALE',
    type: 'SELL',
    displayPriority: 1,
    themeUrl: 'https://cdn.example.vn/themes/flash-sale.png',
    startAt: new Date(now - 3600_000).toISOString(),
    endAt: new Date(now + 7 * 86400_000).toISOString(),
    presale: null,
    banners: [
      {
        channelCode: 'APP',
        positionCode: 'CAROUSEL',
        assetUrl: 'https://cdn.example.vn/banners/flash-app.png',
        assetType: 'IMAGE',
        altText: 'Flash sale',
        clickUrl: null,
        displayOrder: 1,
      },
      {
        channelCode: 'WEB',
        positionCode: 'DETAIL_TOP',
        assetUrl: 'https://cdn.example.vn/banners/flash-web.png',
        assetType: 'IMAGE',
        altText: 'Flash sale',
        clickUrl: null,
        displayOrder: 1,
      },
    ],
  });
  await services.campaigns.changeStatus(operator, campaign.id, 'APPROVED');
  await services.campaigns.changeStatus(operator, campaign.id, 'ACTIVE');

  const pools = [
    { title: 'Voucher giảm 100.000đ mua điện thoại', brandName: 'Điện Máy Xanh', faceValue: 100_000, sellingPrice: 79_000, stock: 500, categoryId: 1 },
    { title: 'Phiếu ăn uống 50.000đ', brandName: 'Phở Hà Nội', faceValue: 50_000, sellingPrice: 39_000, stock: 1_000, categoryId: 2 },
    { title: 'Voucher di chuyển 30.000đ', brandName: 'Xe Ôm Nhanh', faceValue: 30_000, sellingPrice: 25_000, stock: 2_000, categoryId: 3 },
  ];
  const created = [];
  for (const p of pools) {
    const pool = await services.pools.create(operator, {
      campaignId: campaign.id,
      categoryId: p.categoryId,
      miniAppIds: ['demo-mini-app'],
      display: {
        title: p.title,
        shortTitle: p.title.slice(0, 24),
        brandName: p.brandName,
        logoUrl: 'https://cdn.example.vn/logos/demo.png',
        bannerUrl: 'https://cdn.example.vn/banners/demo.png',
        thumbnailUrl: 'https://cdn.example.vn/thumbs/demo.png',
        description: `${p.title} – áp dụng toàn quốc.`,
      },
      pricing: { faceValue: p.faceValue, sellingPrice: p.sellingPrice, discountedPrice: null, currency: 'VND' },
      totalQuantity: p.stock,
      terms: { usageType: 'ONLINE', termsAndConditions: 'Mỗi voucher dùng một lần.', validityDays: 30, usageLimit: 10, maxPerDay: 5, maxPerOrder: 5 },
      validity: null,
    });
    created.push({ id: pool.poolId, title: p.title, sellingPrice: p.sellingPrice, currency: 'VND' });
  }
  const data: DemoData = { merchantId, apiKey: merchant.apiKey.key, campaignId: campaign.id, pools: created };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, 2), { mode: 0o600 });
  return data;
}
