/**
 * Campaigns of the voucher shop: what the shop shows (ShopCampaignResponse)
 * and the status that decides whether their vouchers are on sale.
 *
 * Streams:
 *   campaign-<campaignId>    the campaign
 *   campaignCode-<CODE>      guard: a campaign code is used once (compared case-insensitively),
 *                            claimed with 'no_stream' in the same write as the creation
 */
import type { CampaignCodeClaimed, CampaignCreated, CampaignEvent } from './events.js';
import type { Decider } from '../shared/decider.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { invalidInput, shopError } from './errors.js';

export const campaignStatuses = ['DRAFT', 'APPROVED', 'ACTIVE', 'PAUSED', 'ENDED'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/**
 * Allowed status changes. PAUSED → ENDED is allowed so that ending a paused
 * campaign does not have to put its vouchers back on sale first.
 */
export const campaignTransitions: Readonly<Record<CampaignStatus, readonly CampaignStatus[]>> = {
  DRAFT: ['APPROVED'],
  APPROVED: ['ACTIVE'],
  ACTIVE: ['PAUSED', 'ENDED'],
  PAUSED: ['ACTIVE', 'ENDED'],
  ENDED: [],
};

export const bannerChannels = ['APP', 'WEB'] as const;
export const bannerPositions = ['CAROUSEL', 'DETAIL_TOP'] as const;
export const bannerAssetTypes = ['IMAGE', 'VIDEO'] as const;

export interface CampaignPresale {
  enabled: boolean;
  startAt: string;
  countdownEnabled: boolean;
  teaserText: string;
  teaserImageUrl: string;
}

export interface CampaignBanner {
  id: number;
  channelCode: (typeof bannerChannels)[number];
  positionCode: (typeof bannerPositions)[number];
  assetUrl: string;
  assetType: (typeof bannerAssetTypes)[number];
  altText: string;
  clickUrl: string | null;
  displayOrder: number;
}

/** A banner as an operator gives it (its id is assigned when it is added). */
export type NewCampaignBanner = Omit<CampaignBanner, 'id'>;

/**
 * What an operator gives to create a campaign, checked for form by the interface (text trimmed, codes and URLs
 * well-formed, times ISO 8601 in UTC as Date.toISOString writes them); the decider keeps the rules between fields.
 */
export interface NewCampaign {
  code: string;
  name: string;
  description: string;
  /** e.g. HOT_DEAL, FLASH_SALE */
  campaignTag: string;
  /** e.g. SELL */
  type: string;
  displayPriority: number;
  themeUrl: string;
  startAt: string;
  endAt: string;
  presale: CampaignPresale | null;
  banners: NewCampaignBanner[];
}

/** A campaign has at most this many banners. */
export const maxCampaignBanners = 50;

/** What an operator may change of a campaign after creation (its code and type are fixed). */
export const campaignDetailFields = [
  'name',
  'description',
  'campaignTag',
  'displayPriority',
  'themeUrl',
  'startAt',
  'endAt',
  'presale',
] as const;
export type CampaignDetails = Pick<NewCampaign, (typeof campaignDetailFields)[number]>;

export const campaignCodeStream = (code: string) => `campaignCode-${code.toUpperCase()}`;

/** The guard claim written with a campaign's creation: its code is used once. */
export function campaignCodeClaim(created: CampaignCreated): CampaignCodeClaimed {
  const { code, campaignId, createdAt } = created.data;
  return { type: 'CampaignCodeClaimed', data: { code, campaignId, claimedAt: createdAt } };
}

// ---- the campaign aggregate ----

export interface Campaign extends Omit<NewCampaign, 'banners'> {
  campaignId: number;
  status: CampaignStatus;
  banners: CampaignBanner[];
  createdAt: string;
  updatedAt: string;
}

export type CampaignState = { readonly status: 'NONE' } | Campaign;

export type CampaignCommand =
  | { type: 'CreateCampaign'; campaignId: number; campaign: NewCampaign; bannerIds: number[]; now: string }
  | { type: 'ChangeCampaignStatus'; campaignId: number; status: CampaignStatus; now: string }
  /** Changes the details given; the others stay. */
  | { type: 'UpdateCampaignDetails'; campaignId: number; changes: Partial<CampaignDetails>; now: string }
  | { type: 'AddCampaignBanner'; campaignId: number; bannerId: number; banner: NewCampaignBanner; now: string }
  /** Changes the banner's fields given; the others stay. */
  | {
      type: 'UpdateCampaignBanner';
      campaignId: number;
      bannerId: number;
      changes: Partial<NewCampaignBanner>;
      now: string;
    }
  | { type: 'RemoveCampaignBanner'; campaignId: number; bannerId: number; now: string };

// ---- the rules ----

const before = (a: string, b: string) => Date.parse(a) < Date.parse(b);

/** The window and presale rules, naming `fields` as the operator sent them. */
function assertSchedule(
  schedule: Pick<NewCampaign, 'startAt' | 'endAt' | 'presale'>,
  fields: { window: string; presale: string },
): void {
  if (!before(schedule.startAt, schedule.endAt)) throw invalidInput(fields.window, 'endAt must be after startAt');
  if (schedule.presale && !before(schedule.presale.startAt, schedule.startAt))
    throw invalidInput(
      fields.presale,
      fields.presale === 'startAt' ? 'startAt must be after presale.startAt' : 'presale.startAt must be before startAt',
    );
}

function existing(state: CampaignState, campaignId: number): Campaign {
  if (state.status === 'NONE')
    throw shopError('CAMPAIGN_NOT_FOUND', `campaign ${campaignId} does not exist`, { campaignId });
  return state;
}

/** Campaign changes stop once it ENDED: what it showed stays as it was. */
function editable(state: CampaignState, campaignId: number): Campaign {
  const campaign = existing(state, campaignId);
  if (campaign.status === 'ENDED')
    throw shopError('CAMPAIGN_ENDED', `campaign ${campaignId} has ended and can no longer change`, { campaignId });
  return campaign;
}

/** Equal as JSON, whatever the order of object keys (stored events come back with their keys reordered). */
const sameJson = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * The campaign's details after `changes`: the window (endAt after startAt) and presale.startAt before startAt are
 * checked on the result, naming the field the operator sent.
 */
function changedDetails(current: CampaignDetails, changes: Partial<CampaignDetails>): CampaignDetails {
  const details = { ...current };
  for (const field of campaignDetailFields)
    if (changes[field] !== undefined) Object.assign(details, { [field]: changes[field] });
  assertSchedule(details, {
    window: changes.endAt !== undefined ? 'endAt' : 'startAt',
    presale: changes.presale !== undefined ? 'presale.startAt' : 'startAt',
  });
  return details;
}

function existingBanner(campaign: Campaign, bannerId: number): CampaignBanner {
  const found = campaign.banners.find((b) => b.id === bannerId);
  if (!found)
    throw shopError('BANNER_NOT_FOUND', `campaign ${campaign.campaignId} has no banner ${bannerId}`, {
      campaignId: campaign.campaignId,
      bannerId,
    });
  return found;
}

function detailsOf(c: Campaign): CampaignDetails {
  const { name, description, campaignTag, displayPriority, themeUrl, startAt, endAt, presale } = c;
  return { name, description, campaignTag, displayPriority, themeUrl, startAt, endAt, presale };
}

/** A banner's fields in their order, whatever order a change gave them in. */
function bannerOf(id: number, b: NewCampaignBanner): CampaignBanner {
  const { channelCode, positionCode, assetUrl, assetType, altText, clickUrl, displayOrder } = b;
  return { id, channelCode, positionCode, assetUrl, assetType, altText, clickUrl, displayOrder };
}

function decide(command: CampaignCommand, state: CampaignState): CampaignEvent[] {
  switch (command.type) {
    case 'CreateCampaign': {
      if (state.status !== 'NONE')
        throw shopError('CAMPAIGN_EXISTS', `campaign ${command.campaignId} already exists`, {
          campaignId: command.campaignId,
        });
      const { campaign } = command;
      assertSchedule(campaign, { window: 'endAt', presale: 'presale.startAt' });
      if (campaign.banners.length > maxCampaignBanners)
        throw invalidInput('banners', `banners must be an array of at most ${maxCampaignBanners}`);
      if (command.bannerIds.length !== campaign.banners.length) throw new Error('one banner id per banner is required');
      const { code, name, description, campaignTag, type, displayPriority, themeUrl, startAt, endAt, presale } =
        campaign;
      return [
        {
          type: 'CampaignCreated',
          data: {
            campaignId: command.campaignId,
            code,
            name,
            description,
            campaignTag,
            type,
            displayPriority,
            themeUrl,
            startAt,
            endAt,
            presale,
            banners: campaign.banners.map((b, i) => bannerOf(command.bannerIds[i]!, b)),
            status: 'DRAFT',
            createdAt: command.now,
          },
        },
      ];
    }
    case 'ChangeCampaignStatus': {
      const campaign = existing(state, command.campaignId);
      const to = command.status;
      if (!campaignTransitions[campaign.status].includes(to)) {
        throw shopError(
          'INVALID_STATUS_TRANSITION',
          `campaign ${campaign.campaignId} cannot go from ${campaign.status} to ${to}`,
          { campaignId: campaign.campaignId, from: campaign.status, to },
        );
      }
      return [
        {
          type: 'CampaignStatusChanged',
          data: { campaignId: campaign.campaignId, from: campaign.status, to, changedAt: command.now },
        },
      ];
    }
    case 'UpdateCampaignDetails': {
      const campaign = editable(state, command.campaignId);
      const current = detailsOf(campaign);
      const details = changedDetails(current, command.changes);
      // Nothing different: no event, so a retried update succeeds without a trace.
      if (sameJson(details, current)) return [];
      return [
        {
          type: 'CampaignDetailsUpdated',
          data: { campaignId: campaign.campaignId, ...details, updatedAt: command.now },
        },
      ];
    }
    case 'AddCampaignBanner': {
      const campaign = editable(state, command.campaignId);
      if (campaign.banners.length >= maxCampaignBanners)
        throw invalidInput('banners', `a campaign has at most ${maxCampaignBanners} banners`);
      if (campaign.banners.some((b) => b.id === command.bannerId))
        throw new Error(`banner id ${command.bannerId} is already used`);
      return [
        {
          type: 'CampaignBannerAdded',
          data: {
            campaignId: campaign.campaignId,
            banner: bannerOf(command.bannerId, command.banner),
            addedAt: command.now,
          },
        },
      ];
    }
    case 'UpdateCampaignBanner': {
      const campaign = editable(state, command.campaignId);
      const current = existingBanner(campaign, command.bannerId);
      const changes = Object.fromEntries(Object.entries(command.changes).filter(([, v]) => v !== undefined));
      const updated = bannerOf(current.id, { ...current, ...changes });
      if (sameJson(updated, current)) return [];
      return [
        {
          type: 'CampaignBannerUpdated',
          data: { campaignId: campaign.campaignId, banner: updated, updatedAt: command.now },
        },
      ];
    }
    case 'RemoveCampaignBanner': {
      const campaign = editable(state, command.campaignId);
      existingBanner(campaign, command.bannerId);
      return [
        {
          type: 'CampaignBannerRemoved',
          data: { campaignId: campaign.campaignId, bannerId: command.bannerId, removedAt: command.now },
        },
      ];
    }
  }
}

function evolve(state: CampaignState, event: CampaignEvent): CampaignState {
  if (event.type === 'CampaignCreated') {
    const { createdAt, ...campaign } = event.data;
    return { ...campaign, createdAt, updatedAt: createdAt };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'CampaignStatusChanged':
      return { ...state, status: event.data.to, updatedAt: event.data.changedAt };
    case 'CampaignDetailsUpdated': {
      const { campaignId: _campaignId, updatedAt, ...details } = event.data;
      return { ...state, ...details, updatedAt };
    }
    case 'CampaignBannerAdded':
      return { ...state, banners: [...state.banners, event.data.banner], updatedAt: event.data.addedAt };
    case 'CampaignBannerUpdated': {
      const { banner: updated, updatedAt } = event.data;
      return { ...state, banners: state.banners.map((b) => (b.id === updated.id ? updated : b)), updatedAt };
    }
    case 'CampaignBannerRemoved':
      return {
        ...state,
        banners: state.banners.filter((b) => b.id !== event.data.bannerId),
        updatedAt: event.data.removedAt,
      };
  }
}

export const campaignDecider: Decider<CampaignCommand, CampaignState, CampaignEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
