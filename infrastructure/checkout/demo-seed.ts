/**
 * The checkout demo for `npm start` (docs/checkout.md, "Demo data"; README, "The checkout with curl"): promotion
 * masters of each type and scope, and the demo user's wallet with promotions usable on a DEMO order of 150,000 VND,
 * ones that are not (minimum not met, a category the order lacks), one of another merchant (which DEMO's key never
 * sees: docs/checkout.md, "Who reaches what") and one that expires seconds after the seed (its stored timer marks it
 * EXPIRED). Idempotent: kept under `checkout` in demo-credentials.json.
 */
import type { CheckoutServices, PromotionMasterDefinition } from '../../application/checkout/index.js';
import { keepDemoCredentials, readDemoCredentials } from '../shared/demo-credentials.js';
import { isDomainError } from '../../application/shared/errors.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import { systemClock, type Clock } from '../../application/shared/clock.js';
import type { DemoSeed } from '../shared/demo-seed.js';
import type { CheckoutConfig } from './config.js';

export interface CheckoutDemoData {
  userId: string;
  merchantId: string;
  promotions: { promotionId: number; promotionMasterId: number; title: string; code: string }[];
}

const asSeed = () => newCommandContext({ actor: { operator: 'demo-seed' } });
const demoUser = 'demo-user-1';
const day = 24 * 3600 * 1000;

function masters(now: number): PromotionMasterDefinition[] {
  const base = {
    codeType: 'UNIQUE' as const,
    minOrderValue: 0,
    categories: null,
    validFrom: new Date(now - day).toISOString(),
    validUntil: new Date(now + 365 * day).toISOString(),
    perUserLimit: null,
    totalQuota: null,
    pinRequired: false,
    logoUrl: 'https://cdn.example.vn/demo/promotions/logo.png',
    bannerUrl: null,
  };
  return [
    {
      ...base,
      title: 'Giảm 10% đơn từ 100k, tối đa 50k',
      shortTitle: 'Giảm 10%',
      promotionType: 'VOUCHER',
      discount: { type: 'PERCENTAGE', percentage: 10, maxDiscount: 50_000 },
      minOrderValue: 100_000,
      scope: { type: 'MERCHANT', merchantId: 'DEMO' },
      perUserLimit: 3,
    },
    {
      ...base,
      title: 'Miễn phí vận chuyển 15k',
      shortTitle: 'Freeship 15k',
      promotionType: 'SHIPPING',
      discount: { type: 'FIXED', amount: 15_000 },
      scope: { type: 'PLATFORM' },
    },
    {
      ...base,
      title: 'Hoàn 5% xu cho đồ ăn',
      shortTitle: 'Hoàn xu 5%',
      promotionType: 'COIN_CASHBACK',
      discount: { type: 'PERCENTAGE', percentage: 5, maxDiscount: 20_000 },
      scope: { type: 'PLATFORM' },
      categories: ['food'],
      pinRequired: true,
    },
    {
      ...base,
      title: 'Giảm 200k đơn từ 2 triệu',
      shortTitle: 'Giảm 200k',
      promotionType: 'VOUCHER',
      discount: { type: 'FIXED', amount: 200_000 },
      minOrderValue: 2_000_000,
      scope: { type: 'PLATFORM' },
    },
    {
      ...base,
      title: 'Giảm 30k tại cửa hàng khác',
      shortTitle: 'Giảm 30k',
      promotionType: 'VOUCHER',
      discount: { type: 'FIXED', amount: 30_000 },
      // In the wallet, but not listed to DEMO: only OTHER-SHOP's key reaches it.
      scope: { type: 'MERCHANT', merchantId: 'OTHER-SHOP' },
    },
    {
      ...base,
      title: 'Flash: giảm 20k, hết hạn ngay',
      shortTitle: 'Flash 20k',
      promotionType: 'VOUCHER',
      discount: { type: 'FIXED', amount: 20_000 },
      scope: { type: 'PLATFORM' },
      // Ends seconds after the seed: the demo wallet then shows an EXPIRED promotion.
      validUntil: new Date(now + 5_000).toISOString(),
    },
  ];
}

export async function seedCheckoutDemo(
  services: Pick<CheckoutServices, 'promotionMasters' | 'wallet'>,
  dataDir: string,
  clock: Clock = systemClock,
): Promise<CheckoutDemoData> {
  const saved = readDemoCredentials(dataDir).checkout as CheckoutDemoData | undefined;
  if (saved?.promotions.length) {
    const still = await services.promotionMasters.get(saved.promotions[0]!.promotionMasterId).then(
      () => true,
      (e: unknown) => {
        if (isDomainError(e) && e.code === 'PROMOTION_MASTER_NOT_FOUND') return false;
        throw e;
      },
    );
    if (still) return saved;
  }
  const data: CheckoutDemoData = { userId: demoUser, merchantId: 'DEMO', promotions: [] };
  for (const definition of masters(clock.now().getTime())) {
    const master = await services.promotionMasters.create(asSeed(), definition);
    const [issued] = await services.wallet.issue(asSeed(), master.promotionMasterId, [{ userId: demoUser }]);
    data.promotions.push({
      promotionId: issued!.promotionId,
      promotionMasterId: master.promotionMasterId,
      title: definition.title,
      code: issued!.code,
    });
  }
  keepDemoCredentials(dataDir, { checkout: data });
  return data;
}

/** The checkout's module seed (context-module.ts, `demo`): the masters and wallet above, and the banner's lines. */
export const checkoutDemo: DemoSeed<Pick<CheckoutServices, 'promotionMasters' | 'wallet'>, CheckoutConfig> = async (
  services,
  demo,
) => {
  const checkout = await seedCheckoutDemo(services, demo.config.DATA_DIR);
  return {
    lines: [
      `Checkout demo (docs/checkout.md; README, "The checkout with curl"):`,
      `  wallet of ${checkout.userId}: ${checkout.promotions.map((p) => `${p.promotionId} (${p.title})`).join(', ')}`,
      `  API:                  ${demo.shownAt}/loyalty/v1/promotion`,
    ],
  };
};
