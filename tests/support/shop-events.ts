import type {
  CampaignCreated,
  CampaignDetailsUpdated,
  CampaignEvent,
  CampaignStatusChanged,
  VoucherPoolCreated,
  VoucherPoolEvent,
  VoucherPoolRepriced,
  VoucherStockReserved,
} from '../../domain/shop/events.js';
import type { CampaignStatus } from '../../domain/shop/campaign.js';
import { formatPosition } from '../../infrastructure/shared/eventstore/positions.js';
import type { ProjectedEvent } from '../../projections/shared/projector.js';

/**
 * Shop events for projection tests. Campaigns: a DRAFT campaign of type SELL with a
 * year-long window and no banners unless `data` says otherwise.
 */
export function campaignCreated(
  campaignId: number,
  data: Partial<Omit<CampaignCreated['data'], 'campaignId' | 'status'>> = {},
): CampaignCreated {
  return {
    type: 'CampaignCreated',
    data: {
      campaignId,
      code: `C${campaignId}`,
      name: `Campaign ${campaignId}`,
      description: 'Ưu đãi',
      campaignTag: 'HOT_DEAL',
      type: 'SELL',
      displayPriority: campaignId,
      themeUrl: 'https://cdn.example.vn/theme.png',
      startAt: '2026-01-01T00:00:00.000Z',
      endAt: '2027-01-01T00:00:00.000Z',
      presale: null,
      banners: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      ...data,
      status: 'DRAFT',
    },
  };
}

export const statusChanged = (
  campaignId: number,
  from: CampaignStatus,
  to: CampaignStatus,
  changedAt: string,
): CampaignStatusChanged => ({
  type: 'CampaignStatusChanged',
  data: { campaignId, from, to, changedAt },
});

/** DRAFT → APPROVED → ACTIVE at `at`. */
export const activation = (campaignId: number, at: string): CampaignStatusChanged[] => [
  statusChanged(campaignId, 'DRAFT', 'APPROVED', at),
  statusChanged(campaignId, 'APPROVED', 'ACTIVE', at),
];

/** A pool of `campaignId`: category 7, 10 vouchers, one mini app, unless `options` say otherwise. */
export function poolCreated(
  poolId: number,
  campaignId: number,
  options: { categoryId?: number; totalQuantity?: number; miniAppIds?: string[] } = {},
): VoucherPoolCreated {
  return {
    type: 'VoucherPoolCreated',
    data: {
      poolId,
      campaignId,
      categoryId: options.categoryId ?? 7,
      miniAppIds: options.miniAppIds ?? ['app-1'],
      display: {
        title: `Voucher ${poolId}`,
        shortTitle: `V${poolId}`,
        brandName: 'Brand',
        logoUrl: 'https://cdn.example.vn/l.png',
        bannerUrl: 'https://cdn.example.vn/b.png',
        thumbnailUrl: 'https://cdn.example.vn/t.png',
        description: 'A voucher',
      },
      pricing: { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: null, currency: 'VND' },
      totalQuantity: options.totalQuantity ?? 10,
      terms: {
        usageType: 'ONLINE',
        termsAndConditions: 'T&C',
        validityDays: 30,
        usageLimit: null,
        maxPerDay: null,
        maxPerOrder: null,
      },
      validity: null,
      createdAt: '2026-02-02T00:00:00.000Z',
    },
  };
}

export const repriced = (poolId: number, sellingPrice: number): VoucherPoolRepriced => ({
  type: 'VoucherPoolRepriced',
  data: {
    poolId,
    pricing: { faceValue: 100_000, sellingPrice, discountedPrice: null, currency: 'VND' },
    repricedAt: '2026-03-01T00:00:00.000Z',
  },
});

/** Campaign `campaignId` (as campaignCreated makes it) renamed. */
export function renamed(campaignId: number, name: string): CampaignDetailsUpdated {
  const created = campaignCreated(campaignId).data;
  return {
    type: 'CampaignDetailsUpdated',
    data: {
      campaignId,
      name,
      description: created.description,
      campaignTag: created.campaignTag,
      displayPriority: created.displayPriority,
      themeUrl: created.themeUrl,
      startAt: created.startAt,
      endAt: created.endAt,
      presale: null,
      updatedAt: '2026-03-02T00:00:00.000Z',
    },
  };
}

/** `quantity` vouchers of a pool held by `buyer` on 2026-03-01. */
export const reserved = (
  poolId: number,
  quantity: number,
  buyer: { merchantId: string; userId: string } = { merchantId: 'M1', userId: 'u1' },
  reservationKey = `r-${poolId}-${buyer.userId}`,
): VoucherStockReserved => ({
  type: 'VoucherStockReserved',
  data: {
    poolId,
    reservationKey,
    ...buyer,
    quantity,
    unitPrice: 90_000,
    day: '2026-03-01',
    reservedAt: '2026-03-01T00:00:00.000Z',
  },
});

/** Two live campaigns: pools 101 and 102 in campaign 1, pool 103 in campaign 2 (10 vouchers each). */
export const liveCatalog: (CampaignEvent | VoucherPoolEvent)[] = [
  campaignCreated(1),
  ...activation(1, '2026-01-01T00:00:00.000Z'),
  campaignCreated(2),
  ...activation(2, '2026-01-01T00:00:00.000Z'),
  poolCreated(101, 1),
  poolCreated(102, 1),
  poolCreated(103, 2),
];

/**
 * Events as projectors receive them, each one past every event made before by the same function (positions only
 * grow), on the stream of its pool or else of its campaign.
 */
export function inLogOrder(): (events: readonly (CampaignEvent | VoucherPoolEvent)[]) => ProjectedEvent[] {
  let last = 0n;
  return (events) =>
    events.map((e) => {
      last++;
      const data = e.data as { poolId?: number; campaignId?: number };
      return {
        id: `00000000-0000-4000-8000-${String(last).padStart(12, '0')}`,
        streamName: data.poolId !== undefined ? `voucherPool-${data.poolId}` : `campaign-${data.campaignId}`,
        type: e.type,
        schemaVersion: 1,
        data: e.data,
        metadata: { occurredAt: '2026-03-04T00:00:00.000Z' },
        revision: 0,
        position: formatPosition(last, 0n),
        recordedAt: '2026-03-04T00:00:00.000Z',
      };
    });
}
