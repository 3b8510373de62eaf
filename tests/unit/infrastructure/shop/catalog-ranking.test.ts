import { expect } from 'chai';
import {
  pageCampaigns,
  rank,
  rankedCampaigns,
  type CountedCampaign,
  type Ranking,
} from '../../../../infrastructure/shop/catalog-ranking.js';

const campaign = (id: number, priority: number, pools: number, tag = 'HOT_DEAL'): CountedCampaign => ({
  id,
  tag,
  priority,
  pools,
});

/** A ranking as plain objects, to compare. */
const plain = (ranking: Ranking) => ({ campaigns: rankedCampaigns(ranking), total: ranking.total });

describe('catalog ranking: where a voucher page lies, from pool counts', () => {
  // In list order (priority, then id), as the read model keeps them.
  const all = [campaign(3, 1, 2, 'FLASH_SALE'), campaign(9, 1, 0), campaign(5, 2, 4, 'FLASH_SALE'), campaign(7, 2, 3)];

  it('keeps the list order, with the matching pools ahead of each campaign; empty ones left out', () => {
    expect(plain(rank([all], {}))).to.deep.equal({
      campaigns: [
        { id: 3, pools: 2, before: 0 },
        { id: 5, pools: 4, before: 2 },
        { id: 7, pools: 3, before: 6 },
      ],
      total: 9,
    });
  });

  it('applies the campaign-level filters: tags, campaignIds, excludeCampaignIds', () => {
    expect([...rank([all], { tags: ['FLASH_SALE'] }).ids]).to.deep.equal([3, 5]);
    expect(plain(rank([all], { campaignIds: [7, 3] }))).to.deep.equal({
      campaigns: [
        { id: 3, pools: 2, before: 0 },
        { id: 7, pools: 3, before: 2 },
      ],
      total: 5,
    });
    expect(rankedCampaigns(rank([all], { tags: ['FLASH_SALE'], excludeCampaignIds: [3] }))).to.deep.equal([
      { id: 5, pools: 4, before: 0 },
    ]);
    expect(plain(rank([all], { tags: ['NONE'] }))).to.deep.equal({ campaigns: [], total: 0 });
  });

  it('adds up a campaign’s pools over the categories asked for', () => {
    const food = [campaign(3, 1, 2), campaign(7, 2, 1)];
    const travel = [campaign(7, 2, 2), campaign(8, 3, 5)];
    expect(plain(rank([food, travel], {}))).to.deep.equal({
      campaigns: [
        { id: 3, pools: 2, before: 0 },
        { id: 7, pools: 3, before: 2 },
        { id: 8, pools: 5, before: 5 },
      ],
      total: 10,
    });
  });

  it('gives the campaigns a page overlaps and how many of their first pools it skips', () => {
    const ranking = rank([all], {});
    expect(pageCampaigns(ranking, { offset: 0, limit: 2 })).to.deep.equal([{ id: 3, skip: 0 }]);
    expect(pageCampaigns(ranking, { offset: 1, limit: 3 })).to.deep.equal([
      { id: 3, skip: 1 },
      { id: 5, skip: 0 },
    ]);
    expect(pageCampaigns(ranking, { offset: 4, limit: 5 })).to.deep.equal([
      { id: 5, skip: 2 },
      { id: 7, skip: 0 },
    ]);
    expect(pageCampaigns(ranking, { offset: 9, limit: 5 })).to.deep.equal([]);
    expect(pageCampaigns(ranking, { offset: 2, limit: 4 })).to.deep.equal([{ id: 5, skip: 0 }]);
    expect(pageCampaigns(ranking, { offset: 0, limit: 50 })).to.deep.equal([
      { id: 3, skip: 0 },
      { id: 5, skip: 0 },
      { id: 7, skip: 0 },
    ]);
    expect(pageCampaigns(rank([all], { tags: ['NONE'] }), { offset: 0, limit: 5 })).to.deep.equal([]);
  });
});
