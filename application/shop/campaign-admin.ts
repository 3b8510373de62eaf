/**
 * Operator commands on campaigns (stream campaign-<id>), through the write engine. A code is used by one campaign:
 * the guard stream campaignCode-<CODE> is claimed in the same append as the creation (aggregates.ts;
 * docs/shop-api.md).
 */
import {
  shopError,
  type Campaign,
  type CampaignBanner,
  type CampaignCommand,
  type CampaignDetails,
  type CampaignEvent,
  type CampaignPresale,
  type CampaignState,
  type CampaignStatus,
  type NewCampaign,
  type NewCampaignBanner,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import { followUpContext, type CommandContext } from '../shared/command-context.js';
import type { CommandResult } from '../shared/aggregate.js';
import { shopAggregates } from './aggregates.js';
import type { CampaignSaleSync } from './campaign-sale-sync.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';

/** The campaign's own fields of the shop's ShopCampaignResponse. */
export interface CampaignView {
  id: number;
  code: string;
  name: string;
  description: string;
  campaignTag: string;
  type: string;
  status: CampaignStatus;
  displayPriority: number;
  themeUrl: string;
  startAt: string;
  endAt: string;
  presale: CampaignPresale | null;
  banners: CampaignBanner[];
}

export type CampaignInput = NewCampaign;

function view(state: CampaignState): CampaignView {
  if (state.status === 'NONE') throw new Error('a campaign command answered without a campaign');
  const c: Campaign = state;
  return {
    id: c.campaignId,
    code: c.code,
    name: c.name,
    description: c.description,
    campaignTag: c.campaignTag,
    type: c.type,
    status: c.status,
    displayPriority: c.displayPriority,
    themeUrl: c.themeUrl,
    startAt: c.startAt,
    endAt: c.endAt,
    presale: c.presale,
    banners: c.banners,
  };
}

export class CampaignAdmin {
  private readonly campaigns;

  constructor(
    private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock; sales: CampaignSaleSync },
  ) {
    this.campaigns = shopAggregates(deps).campaign;
  }

  /** Creates a DRAFT campaign with ids from the `campaign` and `campaignBanner` sequences. */
  async create(context: CommandContext, campaign: CampaignInput): Promise<CampaignView> {
    const [campaignId] = await this.deps.ids.next('campaign');
    const bannerIds =
      campaign.banners.length > 0 ? await this.deps.ids.next('campaignBanner', campaign.banners.length) : [];
    const { state } = await this.run(context, campaignId!, (now) => ({
      type: 'CreateCampaign',
      campaignId: campaignId!,
      campaign,
      bannerIds,
      now,
    }));
    return view(state);
  }

  /** Answered once every pool of the campaign took the new status: a pause stops sales before the answer. */
  changeStatus(context: CommandContext, campaignId: number, status: CampaignStatus): Promise<CampaignView> {
    return this.answerWithSale(context, campaignId, (now) => ({
      type: 'ChangeCampaignStatus',
      campaignId,
      status,
      now,
    }));
  }

  /** Changes the details given; the others stay. A new window reaches the pools before the answer. */
  updateDetails(context: CommandContext, campaignId: number, changes: Partial<CampaignDetails>): Promise<CampaignView> {
    return this.answerWithSale(context, campaignId, (now) => ({
      type: 'UpdateCampaignDetails',
      campaignId,
      changes,
      now,
    }));
  }

  /** Adds a banner; its id comes from the `campaignBanner` sequence. */
  async addBanner(context: CommandContext, campaignId: number, banner: NewCampaignBanner): Promise<CampaignView> {
    const [bannerId] = await this.deps.ids.next('campaignBanner');
    return this.answer(context, campaignId, (now) => ({
      type: 'AddCampaignBanner',
      campaignId,
      bannerId: bannerId!,
      banner,
      now,
    }));
  }

  /** Changes the banner's fields given; the others stay. */
  updateBanner(
    context: CommandContext,
    campaignId: number,
    bannerId: number,
    changes: Partial<NewCampaignBanner>,
  ): Promise<CampaignView> {
    return this.answer(context, campaignId, (now) => ({
      type: 'UpdateCampaignBanner',
      campaignId,
      bannerId,
      changes,
      now,
    }));
  }

  removeBanner(context: CommandContext, campaignId: number, bannerId: number): Promise<CampaignView> {
    return this.answer(context, campaignId, (now) => ({ type: 'RemoveCampaignBanner', campaignId, bannerId, now }));
  }

  /** The campaign as its stream says (strongly consistent, unlike the shop's listings). */
  async get(campaignId: number): Promise<CampaignView> {
    const state = await this.campaigns.state(campaignId);
    if (state.status === 'NONE')
      throw shopError('CAMPAIGN_NOT_FOUND', `campaign ${campaignId} does not exist`, { campaignId });
    return view(state);
  }

  /** A change of what decides the sale: its terms are copied into the campaign's pools before the answer. */
  private async answerWithSale(
    context: CommandContext,
    campaignId: number,
    command: (now: string) => CampaignCommand,
  ): Promise<CampaignView> {
    const answer = await this.answer(context, campaignId, command);
    await this.deps.sales.sync(followUpContext(context, 'sale'), campaignId);
    return answer;
  }

  private async answer(
    context: CommandContext,
    campaignId: number,
    command: (now: string) => CampaignCommand,
  ): Promise<CampaignView> {
    return view((await this.run(context, campaignId, command)).state);
  }

  private run(
    context: CommandContext,
    campaignId: number,
    command: (now: string) => CampaignCommand,
  ): Promise<CommandResult<CampaignState, CampaignEvent>> {
    return this.campaigns.handle(context, campaignId, command);
  }
}
