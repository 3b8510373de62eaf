import type { CampaignCreated, CampaignStatus, CampaignStatusChanged } from '../../domain/shop/campaign.js';

/**
 * Campaign events for projection tests: a DRAFT campaign of type SELL with a
 * year-long window and no banners unless `data` says otherwise.
 */
export function campaignCreated(campaignId: number, data: Partial<Omit<CampaignCreated['data'], 'campaignId' | 'status'>> = {}): CampaignCreated {
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

export const statusChanged = (campaignId: number, from: CampaignStatus, to: CampaignStatus, changedAt: string): CampaignStatusChanged => ({
  type: 'CampaignStatusChanged',
  data: { campaignId, from, to, changedAt },
});

/** DRAFT → APPROVED → ACTIVE at `at`. */
export const activation = (campaignId: number, at: string): CampaignStatusChanged[] => [
  statusChanged(campaignId, 'DRAFT', 'APPROVED', at),
  statusChanged(campaignId, 'APPROVED', 'ACTIVE', at),
];
