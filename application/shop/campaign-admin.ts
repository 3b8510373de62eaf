import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import {
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { fold } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';
import { streams } from '../../domain/shop/events.js';
import { shopDecoders, shopEventDecoder } from '../../domain/shop/event-decoder.js';
import {
  campaignCodeStream,
  campaignDecider,
  validateNewCampaign,
  type Campaign,
  type CampaignBanner,
  type CampaignCodeClaimed,
  type CampaignCommand,
  type CampaignPresale,
  type CampaignState,
  type CampaignStatus,
  type NewCampaign,
} from '../../domain/shop/campaign.js';

const maxAttempts = 3;

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

function assertOperator(operator: unknown): asserts operator is string {
  if (typeof operator !== 'string' || !operator.trim())
    throw new DomainError('INVALID_INPUT', 'operator is required', { field: 'operator' });
}

function assertCampaignId(campaignId: unknown): asserts campaignId is number {
  if (typeof campaignId !== 'number' || !Number.isSafeInteger(campaignId) || campaignId < 1) {
    throw new DomainError('INVALID_INPUT', 'campaignId must be a positive integer', { field: 'campaignId' });
  }
}

const view = (c: Campaign): CampaignView => ({
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
});

/**
 * Operator commands on campaigns (stream campaign-<id>). A code is used by
 * one campaign: the guard stream campaignCode-<CODE> is claimed in the same
 * appendMany as the creation, guard first. A claim whose campaign was never
 * written (a partial write on a store without multi-stream transactions) is
 * taken over by the next creation with that code.
 */
export class CampaignAdmin {
  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {}

  async create(operator: string, input: CampaignInput): Promise<CampaignView> {
    assertOperator(operator);
    const campaign = validateNewCampaign(input);
    const guard = campaignCodeStream(campaign.code);
    const claims = await this.deps.store.readStream(guard);
    if (claims.length > 0 && (await this.claimHolds(claims.at(-1)!))) throw codeExists(campaign.code);

    const [campaignId] = await this.deps.ids.next('campaign');
    const bannerIds =
      campaign.banners.length > 0 ? await this.deps.ids.next('campaignBanner', campaign.banners.length) : [];
    const now = this.deps.clock.now().toISOString();
    const events = campaignDecider.decide(
      { type: 'CreateCampaign', campaignId: campaignId!, campaign, bannerIds, now },
      null,
    );
    const claim: CampaignCodeClaimed = {
      type: 'CampaignCodeClaimed',
      data: { code: campaign.code, campaignId: campaignId!, claimedAt: now },
    };
    const metadata: EventMetadata = { occurredAt: now, actor: { operator } };
    try {
      await this.deps.store.appendMany([
        {
          streamName: guard,
          events: [
            { id: randomUUID(), ...claim, schemaVersion: shopEventDecoder.currentVersion(claim.type), metadata },
          ],
          expectedVersion: claims.at(-1)?.revision ?? 'no_stream',
        },
        {
          streamName: streams.campaign(campaignId!),
          events: events.map((e) => ({
            id: randomUUID(),
            ...e,
            schemaVersion: shopEventDecoder.currentVersion(e.type),
            metadata,
          })),
          expectedVersion: 'no_stream',
        },
      ]);
    } catch (e) {
      if (e instanceof WrongExpectedVersionError && e.streamName === guard) throw codeExists(campaign.code);
      throw e;
    }
    return view(fold(campaignDecider, events)!);
  }

  changeStatus(operator: string, campaignId: number, status: CampaignStatus): Promise<CampaignView> {
    return this.execute(operator, campaignId, (now) => ({ type: 'ChangeCampaignStatus', campaignId, status, now }));
  }

  /** Changes some of the details (campaignDetailFields); the others stay. */
  updateDetails(operator: string, campaignId: number, changes: unknown): Promise<CampaignView> {
    return this.execute(operator, campaignId, (now) => ({ type: 'UpdateCampaignDetails', campaignId, changes, now }));
  }

  /** Adds a banner; its id comes from the `campaignBanner` sequence. */
  async addBanner(operator: string, campaignId: number, banner: unknown): Promise<CampaignView> {
    assertOperator(operator);
    assertCampaignId(campaignId);
    const [bannerId] = await this.deps.ids.next('campaignBanner');
    return this.execute(operator, campaignId, (now) => ({
      type: 'AddCampaignBanner',
      campaignId,
      bannerId: bannerId!,
      banner,
      now,
    }));
  }

  /** Changes some fields of one banner; the others stay. */
  updateBanner(operator: string, campaignId: number, bannerId: number, changes: unknown): Promise<CampaignView> {
    return this.execute(operator, campaignId, (now) => ({
      type: 'UpdateCampaignBanner',
      campaignId,
      bannerId,
      changes,
      now,
    }));
  }

  removeBanner(operator: string, campaignId: number, bannerId: number): Promise<CampaignView> {
    return this.execute(operator, campaignId, (now) => ({ type: 'RemoveCampaignBanner', campaignId, bannerId, now }));
  }

  /** Load, decide, append on campaign-<id>, again on a version conflict (at most maxAttempts). */
  private async execute(
    operator: string,
    campaignId: number,
    commandAt: (now: string) => CampaignCommand,
  ): Promise<CampaignView> {
    assertOperator(operator);
    assertCampaignId(campaignId);
    const command = commandAt(this.deps.clock.now().toISOString());
    const metadata: EventMetadata = { occurredAt: command.now, actor: { operator } };
    const streamName = streams.campaign(campaignId);
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await this.load(campaignId);
      const events = campaignDecider.decide(command, state);
      // A change to what the campaign already is appends nothing.
      if (events.length === 0) return view(state!);
      try {
        await this.deps.store.append(
          streamName,
          events.map((e) => ({
            id: randomUUID(),
            ...e,
            schemaVersion: shopEventDecoder.currentVersion(e.type),
            metadata,
          })),
          version,
        );
        return view(events.reduce(campaignDecider.evolve, state)!);
      } catch (e) {
        if (!(e instanceof WrongExpectedVersionError) || attempt === maxAttempts) throw e;
      }
    }
  }

  /** The campaign as its stream says (strongly consistent, unlike the shop's listings). */
  async get(campaignId: number): Promise<CampaignView> {
    assertCampaignId(campaignId);
    const { state } = await this.load(campaignId);
    if (!state) throw new DomainError('CAMPAIGN_NOT_FOUND', `campaign ${campaignId} does not exist`, { campaignId });
    return view(state);
  }

  private async load(campaignId: number): Promise<{ state: CampaignState; version: number }> {
    const recorded = await this.deps.store.readStream(streams.campaign(campaignId));
    const events = recorded.map((e) => shopDecoders.campaign.decode(e));
    return { state: fold(campaignDecider, events), version: recorded.at(-1)?.revision ?? -1 };
  }

  /** Whether the campaign a code claim names was written. */
  private async claimHolds(claim: RecordedEvent): Promise<boolean> {
    const { campaignId } = shopDecoders.campaignCode.decode(claim).data;
    return (await this.deps.store.readStream(streams.campaign(campaignId))).length > 0;
  }
}

function codeExists(code: string): DomainError {
  return new DomainError('CAMPAIGN_CODE_EXISTS', `campaign code ${code} is already used`, { code });
}
