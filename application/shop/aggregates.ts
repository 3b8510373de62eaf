/**
 * The shop's ordinary aggregates, as the write engine names them (application/shared/aggregate.ts;
 * docs/event-store.md, "The write engine"), with the guard claims and side writes every command of theirs carries.
 * The voucher pools' purchases and the shop reservations have the batched writer of the hot pools instead
 * (purchase-executor.ts); a pool's creation comes through here.
 */
import {
  apiKeyLookupEventFor,
  apiKeyStream,
  campaignCodeClaim,
  campaignCodeStream,
  campaignDecider,
  campaignPoolsDecider,
  categoryIndexEntry,
  categoryIndexStream,
  merchantDecider,
  shopDecoders,
  shopError,
  shopEventDecoder,
  streams,
  voucherCategoryDecider,
  voucherPoolDecider,
  type CampaignEvent,
  type MerchantEvent,
  type VoucherCategoryEvent,
} from '../../domain/shop/index.js';
import { aggregate, type AggregateDeps, type GuardClaim, type SideWrite } from '../shared/aggregate.js';

export function shopAggregates(deps: AggregateDeps) {
  const eventDecoder = shopEventDecoder;
  return {
    /** A merchant and its API keys: every issue and revocation writes the key's lookup stream too, lookup first. */
    merchant: aggregate(
      {
        decider: merchantDecider,
        stream: streams.merchant,
        decoder: shopDecoders.merchant,
        eventDecoder,
        claims: (decided) => decided.flatMap(lookupClaim),
        sideWrites: (decided) => decided.flatMap(lookupRevocation),
      },
      deps,
    ),
    /** A campaign: its code is used by one campaign (the guard stream campaignCode-<CODE>). */
    campaign: aggregate(
      {
        decider: campaignDecider,
        stream: streams.campaign,
        decoder: shopDecoders.campaign,
        eventDecoder,
        claims: (decided) => decided.flatMap(codeClaim),
      },
      deps,
    ),
    /** The pools listed in a campaign. */
    campaignPools: aggregate(
      {
        decider: campaignPoolsDecider,
        stream: streams.campaignPools,
        decoder: shopDecoders.campaignPools,
        eventDecoder,
      },
      deps,
    ),
    voucherPool: aggregate(
      { decider: voucherPoolDecider, stream: streams.voucherPool, decoder: shopDecoders.voucherPool, eventDecoder },
      deps,
    ),
    /**
     * A voucher category: a creation also appends the id to the voucherCategoryIndex stream in the same append,
     * category first: on a store without multi-stream transactions a partial write leaves a category that is merely
     * not yet listed nor enforced on pools, never an indexed id without a category.
     */
    category: aggregate(
      {
        decider: voucherCategoryDecider,
        stream: streams.category,
        decoder: shopDecoders.category,
        eventDecoder,
        sideWrites: (decided) => decided.flatMap(categoryIndexed),
      },
      deps,
    ),
  };
}

/** A key's lookup stream is claimed once, whatever the command: its event id is named by the key's hash. */
function lookupClaim(event: MerchantEvent): GuardClaim[] {
  const lookup = apiKeyLookupEventFor(event);
  if (lookup?.event.type !== 'ApiKeyClaimed') return [];
  return [
    {
      streamName: apiKeyStream(lookup.keyHash),
      event: lookup.event,
      lost: () => new Error('two API keys have the same sha256'),
      idName: `ApiKeyClaimed:${lookup.keyHash}`,
    },
  ];
}

/** A revocation reaches the lookup first, so a partial write leaves the key unusable, never usable but revoked. */
function lookupRevocation(event: MerchantEvent): SideWrite[] {
  const lookup = apiKeyLookupEventFor(event);
  if (lookup?.event.type !== 'ApiKeyRevoked') return [];
  return [
    {
      streamName: apiKeyStream(lookup.keyHash),
      event: lookup.event,
      expectedVersion: 'stream_exists',
      placement: 'before',
      idName: `ApiKeyRevoked:${lookup.keyHash}`,
    },
  ];
}

const codeExists = (code: string) =>
  shopError('CAMPAIGN_CODE_EXISTS', `campaign code ${code} is already used`, { code });

function codeClaim(e: CampaignEvent): GuardClaim[] {
  if (e.type !== 'CampaignCreated') return [];
  return [
    {
      streamName: campaignCodeStream(e.data.code),
      event: campaignCodeClaim(e),
      lost: () => codeExists(e.data.code),
      // A claim whose campaign was never written (a partial write) is taken over.
      claimant: (claim) => streams.campaign(shopDecoders.campaignCode.decode(claim).data.campaignId),
    },
  ];
}

function categoryIndexed(e: VoucherCategoryEvent): SideWrite[] {
  if (e.type !== 'VoucherCategoryCreated') return [];
  return [
    { streamName: categoryIndexStream, event: categoryIndexEntry(e), expectedVersion: 'any', placement: 'after' },
  ];
}
