/**
 * Copies a campaign's sale terms into its pools (docs/shop-purchase.md, "On sale"), where reserve decides with the
 * stock. Called by the campaign admin right after a change, so the answer to "pause" comes once no pool sells any
 * more; and by a process manager on every campaign change and pool listing, which repairs what a crash between the
 * two writes, or a pool created during a change, left behind. A pool keeps the terms of the newest campaign revision
 * it was given, so the two never undo each other.
 */
import {
  saleOf,
  shopDecoders,
  shopEventDecoder,
  streams,
  type CampaignEvent,
  type VoucherPoolCreated,
  type ShopEvent,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import { followUpContext, reactionContext, type CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { Logger } from '../shared/logger.js';
import type { Reactor } from '../shared/reactor.js';
import type { PoolCommands } from './voucher-pool-admin.js';
import { shopAggregates } from './aggregates.js';

export class CampaignSaleSync {
  private readonly aggregates;

  constructor(private readonly deps: { store: EventStore; pools: PoolCommands; clock: Clock; logger?: Logger }) {
    this.aggregates = shopAggregates(deps);
  }

  /** Copies the campaign's current terms into every pool listed in it (or the pools given); each in its own command. */
  async sync(context: CommandContext, campaignId: number, poolIds?: readonly number[]): Promise<void> {
    const { pools, clock } = this.deps;
    const { state, revision } = await this.aggregates.campaign.load(campaignId);
    if (state.status === 'NONE') return;
    const sale = saleOf(state, revision);
    for (const id of poolIds ?? (await this.listed(campaignId))) {
      const now = clock.now().toISOString();
      await pools.execute(
        id,
        { type: 'SyncVoucherPoolSale', sale, now },
        followUpContext(context, `sale/${id}/${revision}`),
      );
    }
  }

  /** The pools listed in the campaign. */
  async listed(campaignId: number): Promise<number[]> {
    const events = await this.deps.store.readStream(streams.campaignPools(campaignId));
    return events.map((e) => shopDecoders.campaignPools.decode(e).data.poolId);
  }

  /** Lists a pool in its campaign (nothing when it is listed already). */
  async list(context: CommandContext, campaignId: number, poolId: number): Promise<void> {
    await this.aggregates.campaignPools.handle(context, campaignId, (now) => ({
      type: 'ListCampaignPool',
      campaignId,
      poolId,
      now,
    }));
  }
}

type Heard = CampaignEvent | VoucherPoolCreated;

/**
 * The process manager: every campaign change copies the terms into its pools again, and every pool's creation into
 * that pool (listing it first when it predates the index). Idempotent: a pool keeps the newest revision's terms.
 */
export function campaignSaleReactor(sync: CampaignSaleSync): Reactor<ShopEvent> {
  const types = new Set<Heard['type']>(['CampaignStatusChanged', 'CampaignDetailsUpdated', 'VoucherPoolCreated']);
  return {
    name: 'shop-campaign-sale',
    eventTypes: types,
    decoder: shopEventDecoder,
    async react(event) {
      const context = reactionContext(event, 'shop-campaign-sale');
      if (event.type === 'VoucherPoolCreated') {
        await sync.list(context, event.data.campaignId, event.data.poolId);
        return sync.sync(context, event.data.campaignId, [event.data.poolId]);
      }
      if (event.type === 'CampaignStatusChanged' || event.type === 'CampaignDetailsUpdated')
        return sync.sync(context, event.data.campaignId);
    },
  };
}
