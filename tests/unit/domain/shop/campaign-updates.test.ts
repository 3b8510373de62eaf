import type { CampaignEvent } from '../../../../domain/shop/events.js';
import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import {
  campaignDecider,
  type CampaignBanner,
  type CampaignDetails,
  type CampaignPresale,
  type NewCampaignBanner,
} from '../../../../domain/shop/campaign.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(campaignDecider);
const createdAt = '2026-03-01T10:00:00.000Z';
const now = '2026-03-05T08:00:00.000Z';

const presale: CampaignPresale = {
  enabled: true,
  startAt: '2026-05-24T17:00:00.000Z',
  countdownEnabled: true,
  teaserText: 'Sắp mở bán',
  teaserImageUrl: 'https://cdn.example.vn/teaser.png',
};
const appCarousel: CampaignBanner = {
  id: 70,
  channelCode: 'APP',
  positionCode: 'CAROUSEL',
  assetUrl: 'https://cdn.example.vn/b1.png',
  assetType: 'IMAGE',
  altText: 'Hè',
  clickUrl: 'superapp://campaigns/he',
  displayOrder: 1,
};
const details = {
  name: 'Khuyến mãi hè',
  description: 'Voucher cả mùa hè',
  campaignTag: 'HOT_DEAL',
  displayPriority: 2,
  themeUrl: 'https://cdn.example.vn/themes/he.png',
  startAt: '2026-05-31T17:00:00.000Z',
  endAt: '2026-08-31T16:59:59.000Z',
  presale,
};
const created: CampaignEvent = {
  type: 'CampaignCreated',
  data: {
    campaignId: 7,
    code: 'HE-2026',
    type: 'SELL',
    ...details,
    status: 'DRAFT',
    banners: [appCarousel],
    createdAt,
  },
};
const statusChange = (from: 'DRAFT' | 'APPROVED' | 'ACTIVE', to: 'APPROVED' | 'ACTIVE' | 'ENDED'): CampaignEvent => ({
  type: 'CampaignStatusChanged',
  data: { campaignId: 7, from, to, changedAt: createdAt },
});
const ended = [
  created,
  statusChange('DRAFT', 'APPROVED'),
  statusChange('APPROVED', 'ACTIVE'),
  statusChange('ACTIVE', 'ENDED'),
];

describe('campaign decider: updates after creation', () => {
  describe('details', () => {
    it('given a campaign, when its name, tag and priority change, then one event carries every detail as it now is', () => {
      given([created])
        .when({
          type: 'UpdateCampaignDetails',
          campaignId: 7,
          changes: { name: 'Siêu sale hè', campaignTag: 'FLASH_SALE', displayPriority: 1 },
          now,
        })
        .then([
          {
            type: 'CampaignDetailsUpdated',
            data: {
              campaignId: 7,
              ...details,
              name: 'Siêu sale hè',
              campaignTag: 'FLASH_SALE',
              displayPriority: 1,
              updatedAt: now,
            },
          },
        ]);
    });

    it('given a campaign, when its window moves, then the event carries the new times', () => {
      given([created])
        .when({
          type: 'UpdateCampaignDetails',
          campaignId: 7,
          changes: { startAt: '2026-06-09T17:00:00.000Z', endAt: '2026-09-29T17:00:00.000Z' },
          now,
        })
        .then([
          {
            type: 'CampaignDetailsUpdated',
            data: {
              campaignId: 7,
              ...details,
              startAt: '2026-06-09T17:00:00.000Z',
              endAt: '2026-09-29T17:00:00.000Z',
              updatedAt: now,
            },
          },
        ]);
    });

    it('given a campaign with presale, when presale is set to null, then presale is cleared', () => {
      given([created])
        .when({ type: 'UpdateCampaignDetails', campaignId: 7, changes: { presale: null }, now })
        .then([{ type: 'CampaignDetailsUpdated', data: { campaignId: 7, ...details, presale: null, updatedAt: now } }]);
    });

    it('given a campaign, when the changes equal what it already has, then nothing is appended', () => {
      given([created])
        .when({
          type: 'UpdateCampaignDetails',
          campaignId: 7,
          changes: { name: 'Khuyến mãi hè', displayPriority: 2 },
          now,
        })
        .then([]);
    });

    // The form of a change (known fields only, types, lengths, URLs, date-times) is checked by the operator API:
    // tests/unit/api/operator-schemas.test.ts. The decider keeps the rules between fields.
    const refusals: [string, Partial<CampaignDetails>][] = [
      ['endAt', { endAt: '2026-05-01T00:00:00.000Z' }],
      ['startAt', { startAt: '2026-09-01T00:00:00.000Z' }],
      // moving the start before the existing presale start
      ['startAt', { startAt: '2026-05-20T00:00:00.000Z' }],
      ['presale.startAt', { presale: { ...presale, startAt: '2026-07-01T00:00:00.000Z' } }],
    ];
    for (const [field, changes] of refusals) {
      it(`given a campaign, when changed with ${JSON.stringify(changes).slice(0, 60)}, then INVALID_INPUT on ${field}`, () => {
        given([created])
          .when({ type: 'UpdateCampaignDetails', campaignId: 7, changes, now })
          .thenRejects('INVALID_INPUT', { field });
      });
    }

    it('given the start moves before the presale start, when presale moves with it in the same change, then it is accepted', () => {
      const changes = {
        startAt: '2026-05-20T00:00:00.000Z',
        presale: { ...presale, startAt: '2026-05-15T00:00:00.000Z' },
      };
      const [event] = campaignDecider.decide(
        { type: 'UpdateCampaignDetails', campaignId: 7, changes, now },
        fold(campaignDecider, [created]),
      );
      expect(event).to.nested.include({
        'data.startAt': '2026-05-20T00:00:00.000Z',
        'data.presale.startAt': '2026-05-15T00:00:00.000Z',
      });
    });

    it('given no campaign, when updated, then CAMPAIGN_NOT_FOUND', () => {
      given([])
        .when({ type: 'UpdateCampaignDetails', campaignId: 7, changes: { name: 'x' }, now })
        .thenRejects('CAMPAIGN_NOT_FOUND');
    });

    it('given an ENDED campaign, when updated, then CAMPAIGN_ENDED', () => {
      given(ended)
        .when({ type: 'UpdateCampaignDetails', campaignId: 7, changes: { name: 'x' }, now })
        .thenRejects('CAMPAIGN_ENDED');
    });

    it('given an update, when folded, then the campaign shows the new details and keeps code, type, status and banners', () => {
      const state = fold(campaignDecider, [
        created,
        {
          type: 'CampaignDetailsUpdated',
          data: { campaignId: 7, ...details, name: 'Mới', presale: null, updatedAt: now },
        },
      ]);
      expect(state).to.include({
        code: 'HE-2026',
        type: 'SELL',
        status: 'DRAFT',
        name: 'Mới',
        presale: null,
        createdAt,
        updatedAt: now,
      });
      expect(state.status !== 'NONE' && state.banners).to.deep.equal([appCarousel]);
    });
  });

  describe('banners', () => {
    const webTop: NewCampaignBanner = {
      channelCode: 'WEB',
      positionCode: 'DETAIL_TOP',
      assetUrl: 'https://cdn.example.vn/w.mp4',
      assetType: 'VIDEO',
      altText: '',
      clickUrl: null,
      displayOrder: 2,
    };

    it('given a campaign, when a banner is added, then it gets the given id', () => {
      given([created])
        .when({ type: 'AddCampaignBanner', campaignId: 7, bannerId: 71, banner: webTop, now })
        .then([{ type: 'CampaignBannerAdded', data: { campaignId: 7, banner: { id: 71, ...webTop }, addedAt: now } }]);
    });

    it('given a campaign with 50 banners, when one more is added, then INVALID_INPUT on banners', () => {
      const full: CampaignEvent = {
        type: 'CampaignCreated',
        data: {
          ...(created.data as Extract<CampaignEvent, { type: 'CampaignCreated' }>['data']),
          banners: Array.from({ length: 50 }, (_, i) => ({ ...appCarousel, id: i + 1 })),
        },
      };
      given([full])
        .when({ type: 'AddCampaignBanner', campaignId: 7, bannerId: 99, banner: webTop, now })
        .thenRejects('INVALID_INPUT', { field: 'banners' });
    });

    it('given a banner, when its alt text and order change, then the whole banner as it now is is recorded', () => {
      given([created])
        .when({
          type: 'UpdateCampaignBanner',
          campaignId: 7,
          bannerId: 70,
          changes: { altText: 'Hè rực rỡ', displayOrder: 3 },
          now,
        })
        .then([
          {
            type: 'CampaignBannerUpdated',
            data: { campaignId: 7, banner: { ...appCarousel, altText: 'Hè rực rỡ', displayOrder: 3 }, updatedAt: now },
          },
        ]);
    });

    it('given a banner, when changed to what it already is, then nothing is appended', () => {
      given([created])
        .when({ type: 'UpdateCampaignBanner', campaignId: 7, bannerId: 70, changes: { channelCode: 'APP' }, now })
        .then([]);
    });

    it('given a banner, when only some fields change in a different order, then the banner keeps its field order', () => {
      const [event] = campaignDecider.decide(
        {
          type: 'UpdateCampaignBanner',
          campaignId: 7,
          bannerId: 70,
          changes: { displayOrder: 4, clickUrl: null },
          now,
        },
        fold(campaignDecider, [created]),
      );
      expect(
        Object.keys((event as Extract<CampaignEvent, { type: 'CampaignBannerUpdated' }>).data.banner),
      ).to.deep.equal(Object.keys(appCarousel));
    });

    it('given no such banner, when it is updated or removed, then BANNER_NOT_FOUND', () => {
      given([created])
        .when({ type: 'UpdateCampaignBanner', campaignId: 7, bannerId: 5, changes: { altText: 'x' }, now })
        .thenRejects('BANNER_NOT_FOUND');
      given([created])
        .when({ type: 'RemoveCampaignBanner', campaignId: 7, bannerId: 5, now })
        .thenRejects('BANNER_NOT_FOUND');
    });

    it('given a banner, when removed, then it is gone from the campaign', () => {
      const removed = campaignDecider.decide(
        { type: 'RemoveCampaignBanner', campaignId: 7, bannerId: 70, now },
        fold(campaignDecider, [created]),
      );
      expect(removed).to.deep.equal([
        { type: 'CampaignBannerRemoved', data: { campaignId: 7, bannerId: 70, removedAt: now } },
      ]);
      expect(fold(campaignDecider, [created, ...removed])).to.nested.include({ 'banners.length': 0 });
    });

    it('given banners added and updated, when folded, then the campaign lists them in order with their latest fields', () => {
      const added: CampaignEvent = {
        type: 'CampaignBannerAdded',
        data: { campaignId: 7, banner: { id: 71, ...webTop }, addedAt: now },
      };
      const updated: CampaignEvent = {
        type: 'CampaignBannerUpdated',
        data: { campaignId: 7, banner: { ...appCarousel, altText: 'Mới' }, updatedAt: now },
      };
      const state = fold(campaignDecider, [created, added, updated]);
      expect(state.status !== 'NONE' && state.banners.map((b) => [b.id, b.altText])).to.deep.equal([
        [70, 'Mới'],
        [71, ''],
      ]);
    });

    it('given an ENDED campaign, when a banner is added, updated or removed, then CAMPAIGN_ENDED', () => {
      given(ended)
        .when({ type: 'AddCampaignBanner', campaignId: 7, bannerId: 71, banner: webTop, now })
        .thenRejects('CAMPAIGN_ENDED');
      given(ended)
        .when({ type: 'UpdateCampaignBanner', campaignId: 7, bannerId: 70, changes: { altText: 'x' }, now })
        .thenRejects('CAMPAIGN_ENDED');
      given(ended)
        .when({ type: 'RemoveCampaignBanner', campaignId: 7, bannerId: 70, now })
        .thenRejects('CAMPAIGN_ENDED');
    });
  });
});
