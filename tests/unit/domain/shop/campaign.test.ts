import type { CampaignEvent } from '../../../../domain/shop/events.js';
import { expect } from 'chai';
import { fold } from '../../../../domain/shared/decider.js';
import { DomainError } from '../../../../domain/shared/errors.js';
import {
  campaignCodeStream,
  campaignDecider,
  campaignStatuses,
  type CampaignCommand,
  type CampaignStatus,
  type NewCampaign,
} from '../../../../domain/shop/campaign.js';

const now = '2026-03-01T10:00:00.000Z';

const input: NewCampaign = {
  code: 'SUMMER-2026',
  name: 'Summer deals',
  description: 'Hot vouchers all summer',
  campaignTag: 'HOT_DEAL',
  type: 'SELL',
  displayPriority: 1,
  themeUrl: 'https://cdn.example.com/themes/summer.png',
  startAt: '2026-05-31T17:00:00.000Z',
  endAt: '2026-08-31T16:59:59.000Z',
  presale: {
    enabled: true,
    startAt: '2026-05-24T17:00:00.000Z',
    countdownEnabled: true,
    teaserText: 'Coming soon',
    teaserImageUrl: 'https://cdn.example.com/teaser.png',
  },
  banners: [
    {
      channelCode: 'APP',
      positionCode: 'CAROUSEL',
      assetUrl: 'https://cdn.example.com/b1.png',
      assetType: 'IMAGE',
      altText: 'Summer',
      clickUrl: 'superapp://campaigns/summer',
      displayOrder: 1,
    },
    {
      channelCode: 'WEB',
      positionCode: 'DETAIL_TOP',
      assetUrl: 'https://cdn.example.com/b2.mp4',
      assetType: 'VIDEO',
      altText: '',
      clickUrl: null,
      displayOrder: 2,
    },
  ],
};

const create = (campaign: NewCampaign = input, bannerIds = [70, 71]): CampaignCommand => ({
  type: 'CreateCampaign',
  campaignId: 7,
  campaign,
  bannerIds,
  now,
});

function decide(given: CampaignEvent[], command: CampaignCommand): CampaignEvent[] {
  return campaignDecider.decide(command, fold(campaignDecider, given));
}

function refusal(given: CampaignEvent[], command: CampaignCommand): DomainError {
  try {
    decide(given, command);
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  return expect.fail('expected a DomainError');
}

const created = decide([], create());

function inStatus(status: CampaignStatus): CampaignEvent[] {
  const path: Record<CampaignStatus, CampaignStatus[]> = {
    DRAFT: [],
    APPROVED: ['APPROVED'],
    ACTIVE: ['APPROVED', 'ACTIVE'],
    PAUSED: ['APPROVED', 'ACTIVE', 'PAUSED'],
    ENDED: ['APPROVED', 'ACTIVE', 'ENDED'],
  };
  return path[status].reduce(
    (events, to) => [...events, ...decide(events, { type: 'ChangeCampaignStatus', campaignId: 7, status: to, now })],
    created,
  );
}

describe('campaign decider', () => {
  describe('create', () => {
    it('given no campaign, creates it as DRAFT with banner ids', () => {
      expect(created).to.deep.equal([
        {
          type: 'CampaignCreated',
          data: {
            campaignId: 7,
            code: 'SUMMER-2026',
            name: 'Summer deals',
            description: 'Hot vouchers all summer',
            campaignTag: 'HOT_DEAL',
            type: 'SELL',
            displayPriority: 1,
            themeUrl: 'https://cdn.example.com/themes/summer.png',
            startAt: '2026-05-31T17:00:00.000Z',
            endAt: '2026-08-31T16:59:59.000Z',
            presale: {
              enabled: true,
              startAt: '2026-05-24T17:00:00.000Z',
              countdownEnabled: true,
              teaserText: 'Coming soon',
              teaserImageUrl: 'https://cdn.example.com/teaser.png',
            },
            banners: [
              { id: 70, ...input.banners[0]! },
              { id: 71, ...input.banners[1]! },
            ],
            status: 'DRAFT',
            createdAt: now,
          },
        },
      ]);
    });

    it('accepts a campaign without presale or banners', () => {
      const [event] = decide([], create({ ...input, presale: null, banners: [] }, []));
      expect(event).to.nested.include({ type: 'CampaignCreated', 'data.presale': null });
      expect(event!.type === 'CampaignCreated' && event.data.banners).to.deep.equal([]);
    });

    it('given the campaign exists, refuses with CAMPAIGN_EXISTS', () => {
      expect(refusal(created, create()).code).to.equal('CAMPAIGN_EXISTS');
    });

    // The form of each field (lengths, patterns, URLs, date-times) is checked by the operator API:
    // tests/unit/api/operator-schemas.test.ts. The decider keeps the rules between fields.
    const banner0 = input.banners[0]!;
    const refusals: [string, Partial<NewCampaign>][] = [
      ['endAt', { endAt: input.startAt }],
      ['endAt', { endAt: '2026-05-01T00:00:00.000Z' }],
      ['presale.startAt', { presale: { ...input.presale!, startAt: input.startAt } }],
      ['banners', { banners: Array.from({ length: 51 }, () => banner0) }],
    ];
    for (const [field, change] of refusals) {
      it(`refuses ${JSON.stringify(change).slice(0, 70)} as INVALID_INPUT on ${field}`, () => {
        const campaign = { ...input, ...change };
        const e = refusal(
          [],
          create(
            campaign,
            campaign.banners.map((_, i) => i + 1),
          ),
        );
        expect([e.code, e.details.field]).to.deep.equal(['INVALID_INPUT', field]);
      });
    }
  });

  describe('change status', () => {
    const allowed: Record<CampaignStatus, CampaignStatus[]> = {
      DRAFT: ['APPROVED'],
      APPROVED: ['ACTIVE'],
      ACTIVE: ['PAUSED', 'ENDED'],
      PAUSED: ['ACTIVE', 'ENDED'],
      ENDED: [],
    };
    for (const from of campaignStatuses) {
      for (const to of campaignStatuses) {
        const command: CampaignCommand = { type: 'ChangeCampaignStatus', campaignId: 7, status: to, now };
        if (allowed[from].includes(to)) {
          it(`given ${from}, moves to ${to}`, () => {
            expect(decide(inStatus(from), command)).to.deep.equal([
              { type: 'CampaignStatusChanged', data: { campaignId: 7, from, to, changedAt: now } },
            ]);
          });
        } else {
          it(`given ${from}, refuses ${to} with INVALID_STATUS_TRANSITION`, () => {
            const e = refusal(inStatus(from), command);
            expect(e.code).to.equal('INVALID_STATUS_TRANSITION');
            expect(e.details).to.include({ from, to });
          });
        }
      }
    }

    it('given no campaign, refuses with CAMPAIGN_NOT_FOUND', () => {
      expect(refusal([], { type: 'ChangeCampaignStatus', campaignId: 7, status: 'APPROVED', now }).code).to.equal(
        'CAMPAIGN_NOT_FOUND',
      );
    });

    it('folds the new status and the time of the change', () => {
      const later = '2026-03-05T00:00:00.000Z';
      const state = fold(campaignDecider, [
        ...created,
        { type: 'CampaignStatusChanged', data: { campaignId: 7, from: 'DRAFT', to: 'APPROVED', changedAt: later } },
      ]);
      expect(state).to.include({ status: 'APPROVED', createdAt: now, updatedAt: later });
    });
  });

  it('guards codes case-insensitively', () => {
    expect(campaignCodeStream('Summer-2026')).to.equal(campaignCodeStream('SUMMER-2026'));
  });
});
