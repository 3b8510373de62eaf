/**
 * Campaigns of the voucher shop: what the shop shows (ShopCampaignResponse)
 * and the status that decides whether their vouchers are on sale.
 *
 * Streams:
 *   campaign-<campaignId>    the campaign
 *   campaignCode-<CODE>      guard: a campaign code is used once (compared case-insensitively),
 *                            claimed with 'no_stream' in the same write as the creation
 */
import type { Decider, DomainEvent } from '../shared/decider.js';
import { DomainError } from '../shared/errors.js';

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

/** What an operator gives to create a campaign (banner ids are assigned on creation). */
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
  banners: Omit<CampaignBanner, 'id'>[];
}

// ---- campaign-<campaignId> ----

export type CampaignCreated = DomainEvent<
  'CampaignCreated',
  Omit<NewCampaign, 'banners'> & {
    campaignId: number;
    status: CampaignStatus;
    banners: CampaignBanner[];
    createdAt: string;
  }
>;
export type CampaignStatusChanged = DomainEvent<
  'CampaignStatusChanged',
  { campaignId: number; from: CampaignStatus; to: CampaignStatus; changedAt: string }
>;

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

/** Carries every detail as it is after the change, so a reader needs no earlier event to apply it. */
export type CampaignDetailsUpdated = DomainEvent<
  'CampaignDetailsUpdated',
  CampaignDetails & { campaignId: number; updatedAt: string }
>;
export type CampaignBannerAdded = DomainEvent<
  'CampaignBannerAdded',
  { campaignId: number; banner: CampaignBanner; addedAt: string }
>;
/** The banner whole, as it is after the change. */
export type CampaignBannerUpdated = DomainEvent<
  'CampaignBannerUpdated',
  { campaignId: number; banner: CampaignBanner; updatedAt: string }
>;
export type CampaignBannerRemoved = DomainEvent<
  'CampaignBannerRemoved',
  { campaignId: number; bannerId: number; removedAt: string }
>;

export type CampaignEvent =
  | CampaignCreated
  | CampaignStatusChanged
  | CampaignDetailsUpdated
  | CampaignBannerAdded
  | CampaignBannerUpdated
  | CampaignBannerRemoved;

// ---- campaignCode-<CODE> ----

export type CampaignCodeClaimed = DomainEvent<
  'CampaignCodeClaimed',
  { code: string; campaignId: number; claimedAt: string }
>;

export const campaignCodeStream = (code: string) => `campaignCode-${code.toUpperCase()}`;

// ---- the campaign aggregate ----

export interface Campaign extends Omit<NewCampaign, 'banners'> {
  campaignId: number;
  status: CampaignStatus;
  banners: CampaignBanner[];
  createdAt: string;
  updatedAt: string;
}

/** null until the campaign is created. */
export type CampaignState = Campaign | null;

export type CampaignCommand =
  | { type: 'CreateCampaign'; campaignId: number; campaign: NewCampaign; bannerIds: number[]; now: string }
  | { type: 'ChangeCampaignStatus'; campaignId: number; status: string; now: string }
  /** `changes`: some of campaignDetailFields, unchecked operator input. */
  | { type: 'UpdateCampaignDetails'; campaignId: number; changes: unknown; now: string }
  | { type: 'AddCampaignBanner'; campaignId: number; bannerId: number; banner: unknown; now: string }
  /** `changes`: some of the banner's fields (not its id), unchecked operator input. */
  | { type: 'UpdateCampaignBanner'; campaignId: number; bannerId: number; changes: unknown; now: string }
  | { type: 'RemoveCampaignBanner'; campaignId: number; bannerId: number; now: string };

// ---- validation of operator input ----

const codePattern = /^[A-Za-z0-9_-]{1,64}$/;
const enumCodePattern = /^[A-Z0-9_]{1,32}$/;
const maxBanners = 50;

function invalid(field: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', message, { field });
}

function text(value: unknown, field: string, { min, max }: { min: number; max: number }): string {
  const s = typeof value === 'string' ? value.trim() : undefined;
  if (s === undefined || s.length < min || s.length > max)
    throw invalid(field, `${field} must be a string of ${min} to ${max} characters`);
  return s;
}

function matching(value: unknown, pattern: RegExp, field: string, rule: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw invalid(field, `${field} must be ${rule}`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (!allowed.includes(value as T)) throw invalid(field, `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(field, `${field} must be true or false`);
  return value;
}

function integer(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw invalid(field, `${field} must be an integer >= ${min}`);
  return value;
}

/** An absolute URL; `webOnly` limits it to http(s) (assets the app loads), otherwise any scheme (deep links). */
function url(value: unknown, field: string, webOnly: boolean): string {
  let protocol: string | undefined;
  try {
    if (typeof value === 'string' && value.length <= 2048) protocol = new URL(value).protocol;
  } catch {
    // not a URL: refused below
  }
  if (!protocol || (webOnly && protocol !== 'https:' && protocol !== 'http:'))
    throw invalid(field, `${field} must be an absolute ${webOnly ? 'http(s) ' : ''}URL`);
  return value as string;
}

/** Epoch ms of an ISO 8601 date-time with an explicit offset (a bare local time would depend on the server's zone); NaN otherwise. */
function parseDateTime(value: unknown): number {
  const m =
    typeof value === 'string'
      ? /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value)
      : null;
  if (!m) return NaN;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (day.getUTCMonth() !== Number(m[2]) - 1 || day.getUTCDate() !== Number(m[3])) return NaN; // 2024-02-30 and the like
  return Date.parse(value as string);
}

/** An ISO 8601 date-time normalised to UTC. */
function dateTime(value: unknown, field: string): string {
  const at = parseDateTime(value);
  if (Number.isNaN(at)) throw invalid(field, `${field} must be an ISO 8601 date-time with offset`);
  return new Date(at).toISOString();
}

function presale(value: unknown, campaignStartAt: string): CampaignPresale | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') throw invalid('presale', 'presale must be an object or null');
  const p = value as Record<string, unknown>;
  const startAt = dateTime(p.startAt, 'presale.startAt');
  if (startAt >= campaignStartAt) throw invalid('presale.startAt', 'presale.startAt must be before startAt');
  return {
    enabled: flag(p.enabled, 'presale.enabled'),
    startAt,
    countdownEnabled: flag(p.countdownEnabled, 'presale.countdownEnabled'),
    teaserText: text(p.teaserText, 'presale.teaserText', { min: 0, max: 1000 }),
    teaserImageUrl: url(p.teaserImageUrl, 'presale.teaserImageUrl', true),
  };
}

/** A banner's fields, checked; `field` prefixes the names in errors (e.g. banners[0]), '' for none. */
function banner(value: unknown, field: string): Omit<CampaignBanner, 'id'> {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalid(field || 'banner', `${field || 'banner'} must be an object`);
  const b = value as Record<string, unknown>;
  return {
    channelCode: oneOf(b.channelCode, bannerChannels, at('channelCode')),
    positionCode: oneOf(b.positionCode, bannerPositions, at('positionCode')),
    assetUrl: url(b.assetUrl, at('assetUrl'), true),
    assetType: oneOf(b.assetType, bannerAssetTypes, at('assetType')),
    altText: text(b.altText, at('altText'), { min: 0, max: 500 }),
    clickUrl: b.clickUrl === null || b.clickUrl === undefined ? null : url(b.clickUrl, at('clickUrl'), false),
    displayOrder: integer(b.displayOrder, at('displayOrder'), 0),
  };
}

/**
 * Checks an operator's campaign and returns it normalised (text trimmed,
 * times in UTC). Throws INVALID_INPUT naming the first offending field.
 */
export function validateNewCampaign(input: NewCampaign): NewCampaign {
  if (!input || typeof input !== 'object') throw invalid('campaign', 'campaign must be an object');
  const code = matching(input.code, codePattern, 'code', '1 to 64 letters, digits, "_" or "-"');
  const name = text(input.name, 'name', { min: 1, max: 200 });
  const description = text(input.description, 'description', { min: 0, max: 5000 });
  const campaignTag = matching(
    input.campaignTag,
    enumCodePattern,
    'campaignTag',
    '1 to 32 upper-case letters, digits or "_" (e.g. HOT_DEAL, FLASH_SALE)',
  );
  const type = matching(input.type, enumCodePattern, 'type', '1 to 32 upper-case letters, digits or "_" (e.g. SELL)');
  const displayPriority = integer(input.displayPriority, 'displayPriority', 1);
  const themeUrl = url(input.themeUrl, 'themeUrl', true);
  const startAt = dateTime(input.startAt, 'startAt');
  const endAt = dateTime(input.endAt, 'endAt');
  if (endAt <= startAt) throw invalid('endAt', 'endAt must be after startAt');
  if (!Array.isArray(input.banners) || input.banners.length > maxBanners)
    throw invalid('banners', `banners must be an array of at most ${maxBanners}`);
  return {
    code,
    name,
    description,
    campaignTag,
    type,
    displayPriority,
    themeUrl,
    startAt,
    endAt,
    presale: presale(input.presale, startAt),
    banners: input.banners.map((b: unknown, i: number) => banner(b, `banners[${i}]`)),
  };
}

function existing(state: CampaignState, campaignId: number): Campaign {
  if (!state) throw new DomainError('CAMPAIGN_NOT_FOUND', `campaign ${campaignId} does not exist`, { campaignId });
  return state;
}

/** Campaign changes stop once it ENDED: what it showed stays as it was. */
function editable(state: CampaignState, campaignId: number): Campaign {
  const campaign = existing(state, campaignId);
  if (campaign.status === 'ENDED')
    throw new DomainError('CAMPAIGN_ENDED', `campaign ${campaignId} has ended and can no longer change`, {
      campaignId,
    });
  return campaign;
}

/** An operator's partial change: an object naming at least one of `allowed`, nothing else. */
function changeSet(value: unknown, allowed: readonly string[], what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(what, `${what} must be an object`);
  const changes = value as Record<string, unknown>;
  const keys = Object.keys(changes);
  const unknown = keys.find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    throw invalid(unknown, `${unknown} cannot be changed here; changeable: ${allowed.join(', ')}`);
  if (keys.length === 0) throw invalid(what, `${what} must name at least one of ${allowed.join(', ')}`);
  return changes;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The campaign's details after `input` (some of campaignDetailFields), checked as
 * at creation: given fields one by one, then the window (endAt after startAt)
 * and presale.startAt before startAt, naming the field the operator sent.
 */
function changedDetails(current: CampaignDetails, input: unknown): CampaignDetails {
  const changes = changeSet(input, campaignDetailFields, 'details');
  const has = (k: (typeof campaignDetailFields)[number]) => k in changes;
  const startAt = has('startAt') ? dateTime(changes.startAt, 'startAt') : current.startAt;
  const endAt = has('endAt') ? dateTime(changes.endAt, 'endAt') : current.endAt;
  if (endAt <= startAt) throw invalid(has('endAt') ? 'endAt' : 'startAt', 'endAt must be after startAt');
  let presaleSettings = current.presale;
  if (has('presale')) presaleSettings = presale(changes.presale, startAt);
  else if (presaleSettings && presaleSettings.startAt >= startAt)
    throw invalid('startAt', 'startAt must be after presale.startAt');
  return {
    name: has('name') ? text(changes.name, 'name', { min: 1, max: 200 }) : current.name,
    description: has('description')
      ? text(changes.description, 'description', { min: 0, max: 5000 })
      : current.description,
    campaignTag: has('campaignTag')
      ? matching(
          changes.campaignTag,
          enumCodePattern,
          'campaignTag',
          '1 to 32 upper-case letters, digits or "_" (e.g. HOT_DEAL, FLASH_SALE)',
        )
      : current.campaignTag,
    displayPriority: has('displayPriority')
      ? integer(changes.displayPriority, 'displayPriority', 1)
      : current.displayPriority,
    themeUrl: has('themeUrl') ? url(changes.themeUrl, 'themeUrl', true) : current.themeUrl,
    startAt,
    endAt,
    presale: presaleSettings,
  };
}

const bannerFields = [
  'channelCode',
  'positionCode',
  'assetUrl',
  'assetType',
  'altText',
  'clickUrl',
  'displayOrder',
] as const;

function existingBanner(campaign: Campaign, bannerId: number): CampaignBanner {
  const found = campaign.banners.find((b) => b.id === bannerId);
  if (!found)
    throw new DomainError('BANNER_NOT_FOUND', `campaign ${campaign.campaignId} has no banner ${bannerId}`, {
      campaignId: campaign.campaignId,
      bannerId,
    });
  return found;
}

function detailsOf(c: Campaign): CampaignDetails {
  const { name, description, campaignTag, displayPriority, themeUrl, startAt, endAt, presale } = c;
  return { name, description, campaignTag, displayPriority, themeUrl, startAt, endAt, presale };
}

export const campaignDecider: Decider<CampaignCommand, CampaignState, CampaignEvent> = {
  initialState: null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateCampaign': {
        if (state)
          throw new DomainError('CAMPAIGN_EXISTS', `campaign ${command.campaignId} already exists`, {
            campaignId: command.campaignId,
          });
        const campaign = validateNewCampaign(command.campaign);
        if (command.bannerIds.length !== campaign.banners.length)
          throw new Error('one banner id per banner is required');
        const banners = campaign.banners.map((b, i) => ({ id: command.bannerIds[i]!, ...b }));
        return [
          {
            type: 'CampaignCreated',
            data: { campaignId: command.campaignId, ...campaign, banners, status: 'DRAFT', createdAt: command.now },
          },
        ];
      }
      case 'ChangeCampaignStatus': {
        const campaign = existing(state, command.campaignId);
        const to = oneOf(command.status, campaignStatuses, 'status');
        if (!campaignTransitions[campaign.status].includes(to)) {
          throw new DomainError(
            'INVALID_STATUS_TRANSITION',
            `campaign ${campaign.campaignId} cannot go from ${campaign.status} to ${to}`,
            {
              campaignId: campaign.campaignId,
              from: campaign.status,
              to,
            },
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
        if (campaign.banners.length >= maxBanners)
          throw invalid('banners', `a campaign has at most ${maxBanners} banners`);
        if (campaign.banners.some((b) => b.id === command.bannerId))
          throw new Error(`banner id ${command.bannerId} is already used`);
        return [
          {
            type: 'CampaignBannerAdded',
            data: {
              campaignId: campaign.campaignId,
              banner: { id: command.bannerId, ...banner(command.banner, '') },
              addedAt: command.now,
            },
          },
        ];
      }
      case 'UpdateCampaignBanner': {
        const campaign = editable(state, command.campaignId);
        const { id, ...current } = existingBanner(campaign, command.bannerId);
        const updated = { id, ...banner({ ...current, ...changeSet(command.changes, bannerFields, 'banner') }, '') };
        if (sameJson(updated, { id, ...current })) return [];
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
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CampaignCreated': {
        const { createdAt, ...campaign } = event.data;
        return { ...campaign, createdAt, updatedAt: createdAt };
      }
      case 'CampaignStatusChanged':
        return { ...state!, status: event.data.to, updatedAt: event.data.changedAt };
      case 'CampaignDetailsUpdated': {
        const { campaignId: _campaignId, updatedAt, ...details } = event.data;
        return { ...state!, ...details, updatedAt };
      }
      case 'CampaignBannerAdded':
        return { ...state!, banners: [...state!.banners, event.data.banner], updatedAt: event.data.addedAt };
      case 'CampaignBannerUpdated': {
        const { banner: updated, updatedAt } = event.data;
        return { ...state!, banners: state!.banners.map((b) => (b.id === updated.id ? updated : b)), updatedAt };
      }
      case 'CampaignBannerRemoved':
        return {
          ...state!,
          banners: state!.banners.filter((b) => b.id !== event.data.bannerId),
          updatedAt: event.data.removedAt,
        };
    }
  },
};
