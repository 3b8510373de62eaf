/**
 * The catalog benchmark's data: campaigns and voucher pools as the operator
 * services would record them (CampaignCodeClaimed, CampaignCreated,
 * CampaignStatusChanged, VoucherPoolCreated), with Vietnamese names, brands
 * and descriptions drawn from a seeded generator, so every run loads the
 * same catalog.
 */
import { randomUUID } from 'node:crypto';
import type { StreamWrite } from '../application/shared/event-store.js';
import {
  campaignCodeStream,
  type CampaignBanner,
  type CampaignCreated,
  type CampaignStatus,
  type CampaignStatusChanged,
  streams,
  type VoucherPoolCreated,
} from '../domain/shop/index.js';

/** mulberry32: a small seeded generator, so two runs load the same catalog. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** [category id, category, brands, what its vouchers buy] */
export const categories: [number, string, string[], string[]][] = [
  [
    1,
    'Ẩm thực',
    [
      'Phở Hà Nội',
      'KFC',
      'Lotteria',
      'Pizza 4P’s',
      'Bánh Mì Huỳnh Hoa',
      'Cơm Tấm Sà Bì Chưởng',
      'Bún Chả Hương Liên',
      'Jollibee',
    ],
    ['Phiếu ăn uống', 'Combo gà rán', 'Suất bún chả', 'Bữa tối cho hai người', 'Phiếu giảm giá món chính'],
  ],
  [
    2,
    'Cà phê & trà sữa',
    ['Highlands Coffee', 'Phúc Long', 'The Coffee House', 'Trung Nguyên Legend', 'Gong Cha', 'Katinat'],
    ['Cà phê sữa đá', 'Trà sữa trân châu', 'Trà đào cam sả', 'Mua 1 tặng 1 đồ uống', 'Bánh ngọt kèm cà phê'],
  ],
  [
    3,
    'Di chuyển',
    ['Xanh SM', 'Be', 'Grab', 'Mai Linh', 'Phương Trang'],
    ['Giảm giá chuyến xe', 'Voucher taxi điện', 'Vé xe khách giường nằm', 'Chuyến xe ôm công nghệ'],
  ],
  [
    4,
    'Mua sắm',
    ['Shopee', 'Lazada', 'Tiki', 'Co.opmart', 'Bách Hóa Xanh', 'WinMart'],
    ['Mã giảm giá đơn hàng', 'Phiếu mua hàng siêu thị', 'Miễn phí vận chuyển', 'Giảm giá thời trang'],
  ],
  [
    5,
    'Điện thoại & viễn thông',
    ['Viettel', 'MobiFone', 'Vinaphone', 'Thế Giới Di Động', 'Điện Máy Xanh', 'FPT Shop'],
    ['Thẻ nạp điện thoại', 'Gói data 4G', 'Giảm giá khi mua điện thoại', 'Phụ kiện điện thoại'],
  ],
  [
    6,
    'Giải trí',
    ['CGV', 'Galaxy Cinema', 'Lotte Cinema', 'FPT Play', 'Zing MP3', 'VieON'],
    ['Vé xem phim 2D', 'Combo bắp nước', 'Gói xem phim một tháng', 'Gói nghe nhạc VIP'],
  ],
  [
    7,
    'Du lịch',
    ['Vietjet Air', 'Vietnam Airlines', 'Vinpearl', 'Vietravel', 'Saigontourist'],
    ['Vé máy bay nội địa', 'Phòng khách sạn một đêm', 'Tour trong ngày', 'Vé vui chơi'],
  ],
  [
    8,
    'Sức khỏe & làm đẹp',
    ['Guardian', 'Pharmacity', 'Long Châu', 'Hasaki', 'California Fitness'],
    ['Phiếu mua mỹ phẩm', 'Thực phẩm chức năng', 'Thẻ tập gym', 'Chăm sóc da mặt'],
  ],
  [
    9,
    'Giáo dục',
    ['ELSA Speak', 'Fahasa', 'Apollo English', 'Hocmai'],
    ['Khóa học tiếng Anh', 'Phiếu mua sách', 'Gói học trực tuyến'],
  ],
  [
    10,
    'Gia đình & trẻ em',
    ['Con Cưng', 'Kids Plaza', 'Tiniworld', 'Bibomart'],
    ['Phiếu mua đồ trẻ em', 'Vé khu vui chơi', 'Sữa và bỉm'],
  ],
];

const themes = [
  'Siêu sale cuối tuần',
  'Flash Sale giờ vàng',
  'Ưu đãi ẩm thực',
  'Khuyến mãi điện thoại',
  'Tết sum vầy',
  'Mua sắm thả ga',
  'Du lịch hè',
  'Giải trí không giới hạn',
  'Cà phê sáng',
  'Deal hot mỗi ngày',
  'Ngày hội thành viên',
  'Quà tặng mùa lễ hội',
];
const places = [
  'Hà Nội',
  'TP. Hồ Chí Minh',
  'Đà Nẵng',
  'Hải Phòng',
  'Cần Thơ',
  'Huế',
  'Nha Trang',
  'Đà Lạt',
  'Vũng Tàu',
  'toàn quốc',
];
const extras = [
  'Không áp dụng đồng thời với chương trình khác.',
  'Áp dụng cả ngày lễ và cuối tuần.',
  'Số lượng có hạn, nhanh tay kẻo lỡ.',
  'Dùng được cho đơn mua mang đi và giao hàng.',
  'Mỗi khách hàng dùng tối đa một mã mỗi ngày.',
];
const faceValues = [20_000, 30_000, 50_000, 100_000, 150_000, 200_000, 300_000, 500_000, 1_000_000];

/** Tags and their share of campaigns. */
const tags: [string, number][] = [
  ['HOT_DEAL', 0.45],
  ['FLASH_SALE', 0.15],
  ['NEW', 0.2],
  ['TET_DEAL', 0.2],
];

export interface CatalogShape {
  campaigns: number;
  pools: number;
  now: number;
  seed?: number;
}

export interface GeneratedCampaign {
  id: number;
  tag: string;
  /** Whether its vouchers are on sale at `now` (ACTIVE, SELL, window open). */
  live: boolean;
  poolIds: number[];
}

const hour = 3600_000;
const day = 24 * hour;

const vnd = (n: number) => `${n.toLocaleString('de-DE')}đ`;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function weighted<T>(random: () => number, items: [T, number][]): T {
  let r = random();
  for (const [item, weight] of items) if ((r -= weight) < 0) return item;
  return items[items.length - 1]![0];
}

/**
 * The catalog as event-store writes: one guard and one campaign stream per
 * campaign, one pool stream per pool, in that order (campaigns first), each
 * written with 'no_stream'. `ids` hands out campaign, banner and pool ids.
 */
export function generateCatalog(
  shape: CatalogShape,
  ids: { campaigns: number[]; banners: number[]; pools: number[] },
): { campaignWrites: StreamWrite[]; poolWrites: StreamWrite[]; campaigns: GeneratedCampaign[] } {
  const random = seededRandom(shape.seed ?? 20_260_101);
  const { now } = shape;
  const at = new Date(now).toISOString();
  const metadata = { occurredAt: at, actor: { operator: 'bench' } };
  const event = <E extends { type: string; data: unknown }>(e: E) => ({
    id: randomUUID(),
    type: e.type,
    data: e.data,
    metadata,
  });
  const campaignWrites: StreamWrite[] = [];
  const poolWrites: StreamWrite[] = [];
  const campaigns: GeneratedCampaign[] = [];
  let bannerIndex = 0;
  let poolIndex = 0;

  for (let c = 0; c < shape.campaigns; c++) {
    const campaignId = ids.campaigns[c]!;
    const tag = weighted(random, tags);
    const [categoryId, , brands, products] = pick(random, categories);
    // Most campaigns run now; some are paused, drafts, over, or in presale.
    const fate = weighted<'live' | 'paused' | 'draft' | 'ended' | 'presale'>(random, [
      ['live', 0.86],
      ['paused', 0.04],
      ['draft', 0.03],
      ['ended', 0.03],
      ['presale', 0.04],
    ]);
    const startAt = fate === 'presale' ? now + (1 + random() * 5) * day : now - (1 + random() * 30) * day;
    const endAt =
      tag === 'FLASH_SALE' && fate !== 'presale'
        ? now + (1 + random() * 10) * hour
        : startAt + (20 + random() * 70) * day;
    const code = `BENCH-${campaignId}`;
    const name = `${pick(random, themes)} ${pick(random, places)} #${c + 1}`;
    const banners: CampaignBanner[] = (['APP', 'WEB'] as const).flatMap((channelCode) =>
      (['CAROUSEL', 'DETAIL_TOP'] as const).map((positionCode, i) => ({
        id: ids.banners[bannerIndex++]!,
        channelCode,
        positionCode,
        assetUrl: `https://cdn.example.vn/bench/${campaignId}/${channelCode.toLowerCase()}-${positionCode.toLowerCase()}.jpg`,
        assetType: 'IMAGE' as const,
        altText: name,
        clickUrl: null,
        displayOrder: i + 1,
      })),
    );
    const created: CampaignCreated = {
      type: 'CampaignCreated',
      data: {
        campaignId,
        code,
        name,
        description: `${name}: voucher ${brands.slice(0, 3).join(', ')} giá ưu đãi. ${pick(random, extras)}`,
        campaignTag: tag,
        type: random() < 0.97 ? 'SELL' : 'GIFT',
        displayPriority: 1 + Math.floor(random() * 100),
        themeUrl: `https://cdn.example.vn/bench/${campaignId}/theme.jpg`,
        startAt: new Date(startAt).toISOString(),
        endAt: new Date(endAt).toISOString(),
        presale:
          fate === 'presale'
            ? {
                enabled: true,
                startAt: new Date(now - day).toISOString(),
                countdownEnabled: true,
                teaserText: `Sắp mở bán: ${name}`,
                teaserImageUrl: `https://cdn.example.vn/bench/${campaignId}/teaser.jpg`,
              }
            : null,
        banners,
        status: 'DRAFT',
        createdAt: at,
      },
    };
    const path: Record<typeof fate, CampaignStatus[]> = {
      live: ['APPROVED', 'ACTIVE'],
      presale: ['APPROVED', 'ACTIVE'],
      paused: ['APPROVED', 'ACTIVE', 'PAUSED'],
      ended: ['APPROVED', 'ACTIVE', 'ENDED'],
      draft: [],
    };
    let from: CampaignStatus = 'DRAFT';
    const changes = path[fate].map((to): CampaignStatusChanged => {
      const change: CampaignStatusChanged = {
        type: 'CampaignStatusChanged',
        data: { campaignId, from, to, changedAt: at },
      };
      from = to;
      return change;
    });
    campaignWrites.push(
      {
        streamName: campaignCodeStream(code),
        events: [event({ type: 'CampaignCodeClaimed', data: { code, campaignId, claimedAt: at } })],
        expectedVersion: 'no_stream',
      },
      {
        streamName: streams.campaign(campaignId),
        events: [created, ...changes].map(event),
        expectedVersion: 'no_stream',
      },
    );

    const poolCount = Math.floor(shape.pools / shape.campaigns) + (c < shape.pools % shape.campaigns ? 1 : 0);
    const poolIds: number[] = [];
    for (let p = 0; p < poolCount; p++) {
      const poolId = ids.pools[poolIndex++]!;
      poolIds.push(poolId);
      // A campaign mostly sells its own category; some pools come from another.
      const [poolCategory, , poolBrands, poolProducts] =
        random() < 0.8 ? [categoryId, '', brands, products] : pick(random, categories);
      const brand = pick(random, poolBrands);
      const product = pick(random, poolProducts);
      const faceValue = pick(random, faceValues);
      const sellingPrice = Math.round((faceValue * (0.6 + random() * 0.35)) / 1000) * 1000;
      const discounted = random() < 0.3 ? Math.round((sellingPrice * (0.7 + random() * 0.25)) / 1000) * 1000 : null;
      const place = pick(random, places);
      const poolCreated: VoucherPoolCreated = {
        type: 'VoucherPoolCreated',
        data: {
          poolId,
          campaignId,
          categoryId: poolCategory,
          miniAppIds: ['superapp-shop'],
          display: {
            title: `${product} ${vnd(faceValue)} – ${brand}`,
            shortTitle: `${brand} ${faceValue / 1000}K`,
            brandName: brand,
            logoUrl: `https://cdn.example.vn/bench/brands/${encodeURIComponent(brand)}/logo.png`,
            bannerUrl: `https://cdn.example.vn/bench/brands/${encodeURIComponent(brand)}/banner.jpg`,
            thumbnailUrl: `https://cdn.example.vn/bench/brands/${encodeURIComponent(brand)}/thumb.jpg`,
            description: `${product} trị giá ${vnd(faceValue)} tại ${brand}, áp dụng ${place}. ${pick(random, extras)}`,
          },
          pricing: {
            faceValue,
            sellingPrice,
            discountedPrice: discounted,
            currency: random() < 0.1 ? 'VPOINT' : 'VND',
          },
          totalQuantity: random() < 0.05 ? 0 : 100 + Math.floor(random() * 5000),
          terms: {
            usageType: random() < 0.5 ? 'ONLINE' : 'OFFLINE',
            termsAndConditions: `Mỗi mã dùng một lần tại ${brand}. ${pick(random, extras)}`,
            validityDays: pick(random, [7, 14, 30, 60, 90]),
            usageLimit: random() < 0.5 ? 5 : null,
            maxPerDay: random() < 0.5 ? 2 : null,
            maxPerOrder: random() < 0.5 ? 3 : null,
          },
          validity:
            random() < 0.2
              ? { startAt: new Date(startAt).toISOString(), endAt: new Date(endAt + 30 * day).toISOString() }
              : null,
          createdAt: at,
        },
      };
      poolWrites.push({
        streamName: streams.voucherPool(poolId),
        events: [event(poolCreated)],
        expectedVersion: 'no_stream',
      });
    }
    const live =
      (fate === 'live' || fate === 'presale') && created.data.type === 'SELL' && startAt <= now && now < endAt;
    campaigns.push({ id: campaignId, tag, live, poolIds });
  }
  return { campaignWrites, poolWrites, campaigns };
}
