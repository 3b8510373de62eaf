/**
 * Whether a pool is on sale (docs/shop-purchase.md, "On sale"): its campaign is ACTIVE, of type SELL, and `now` is
 * inside its window [startAt, endAt) (a presale shows the campaign before startAt but sells nothing). The listing and
 * the detail show exactly these pools; reserve decides the same inside the pool's serial decision, from the
 * campaign's terms the pool carries (copied at creation and on every campaign change, VoucherPoolSaleChanged), so a
 * paused campaign stops sales at once.
 */
import type { Decider } from '../shared/decider.js';
import type { Campaign, CampaignStatus } from './campaign.js';
import type { CampaignPoolListed } from './events.js';

export interface PoolSale {
  /** The campaign stream's revision the terms are of: a pool keeps the newest, whatever order copies arrive in. */
  campaignRevision: number;
  status: CampaignStatus;
  type: string;
  startAt: string;
  endAt: string;
}

/** The sale terms of a campaign at `revision` of its stream. */
export const saleOf = (campaign: Campaign, revision: number): PoolSale => ({
  campaignRevision: revision,
  status: campaign.status,
  type: campaign.type,
  startAt: campaign.startAt,
  endAt: campaign.endAt,
});

/** Why a pool with these terms sells nothing at `now` (ISO 8601 in UTC), or undefined when it is on sale. */
export function notOnSale(sale: PoolSale, now: string): string | undefined {
  if (sale.status !== 'ACTIVE') return `its campaign is ${sale.status}`;
  if (sale.type !== 'SELL') return `its campaign is of type ${sale.type}, which sells nothing`;
  if (Date.parse(now) < Date.parse(sale.startAt)) return `its sale starts at ${sale.startAt}`;
  if (Date.parse(now) >= Date.parse(sale.endAt)) return `its sale ended at ${sale.endAt}`;
  return undefined;
}

// ---- the index campaignPools-<campaignId>: the pools a campaign's changes are copied to ----

export type CampaignPoolsState =
  { readonly status: 'NONE' } | { readonly status: 'LISTED'; readonly poolIds: ReadonlySet<number> };
export type CampaignPoolsCommand = { type: 'ListCampaignPool'; campaignId: number; poolId: number; now: string };

export const campaignPoolsDecider: Decider<CampaignPoolsCommand, CampaignPoolsState, CampaignPoolListed> = {
  initialState: { status: 'NONE' },
  decide: (command, state) =>
    state.status === 'LISTED' && state.poolIds.has(command.poolId)
      ? []
      : [
          {
            type: 'CampaignPoolListed',
            data: { campaignId: command.campaignId, poolId: command.poolId, listedAt: command.now },
          },
        ],
  evolve: (state, event) => ({
    status: 'LISTED',
    poolIds: new Set([...(state.status === 'LISTED' ? state.poolIds : []), event.data.poolId]),
  }),
};
