import type { CampaignCodeClaimed } from '../../../domain/shop/events.js';
import {
  apiSpecification,
  existingStream,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  matching,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { campaignCreated } from '../../support/shop-events.js';
import { campaignInput, operatorHeaders } from '../support.js';

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now, lastIds: { campaign: 7 } });
const createCampaign = (overrides: Record<string, unknown>): ApiRequest => ({
  method: 'POST',
  path: '/operator/v1/campaigns',
  headers: operatorHeaders(),
  json: campaignInput(overrides),
});
const byAlice = { actor: { operator: 'alice' } };
const claimed = (campaignId: number): CampaignCodeClaimed => ({
  type: 'CampaignCodeClaimed',
  data: { code: 'SUMMER-2026', campaignId, claimedAt: '2026-01-01T00:00:00.000Z' },
});

describe('Operator API, fast: campaigns', () => {
  it('creates a DRAFT campaign: 201, its code claimed in its guard stream and the campaign created, by the operator', () =>
    given()
      .when(createCampaign({ code: 'Summer-2026', startAt: '2026-06-01T07:00:00+07:00' }))
      .then(
        expectResponse(201, {
          body: matching({
            code: 'SUCCESS',
            data: matching({ id: 8, code: 'Summer-2026', status: 'DRAFT', startAt: '2026-06-01T00:00:00.000Z' }),
          }),
        }),
        expectAppended({
          'campaignCode-SUMMER-2026': [
            {
              type: 'CampaignCodeClaimed',
              data: { code: 'Summer-2026', campaignId: 8, claimedAt: now },
              metadata: byAlice,
            },
          ],
          'campaign-8': [
            {
              type: 'CampaignCreated',
              data: {
                campaignId: 8,
                code: 'Summer-2026',
                name: 'Flash sale',
                description: 'Vouchers at a discount',
                campaignTag: 'FLASH_SALE',
                type: 'SELL',
                displayPriority: 1,
                themeUrl: 'https://cdn.example.vn/theme.png',
                startAt: '2026-06-01T00:00:00.000Z',
                endAt: '2027-12-31T00:00:00.000Z',
                presale: null,
                banners: [],
                status: 'DRAFT',
                createdAt: now,
              },
              metadata: byAlice,
            },
          ],
        }),
      ));

  it('refuses a code another campaign holds, whatever its case, with 409 OPS-CONFLICT, and appends nothing', () =>
    given(existingStream('campaignCode-SUMMER-2026', [claimed(3)]), existingStream('campaign-3', [campaignCreated(3)]))
      .when(createCampaign({ code: 'summer-2026' }))
      .then(
        expectResponse(409, {
          body: { code: 'OPS-CONFLICT', message: 'campaign code summer-2026 is already used', data: null },
        }),
        expectNoNewEvents(),
      ));

  it('takes over a claim whose campaign was never written (a partial write), claiming the code again after it', () =>
    given(existingStream('campaignCode-SUMMER-2026', [claimed(3)]))
      .when(createCampaign({ code: 'SUMMER-2026' }))
      .then(
        expectResponse(201, { body: matching({ data: matching({ id: 8, code: 'SUMMER-2026' }) }) }),
        expectAppended({
          'campaignCode-SUMMER-2026': [
            { type: 'CampaignCodeClaimed', data: { code: 'SUMMER-2026', campaignId: 8, claimedAt: now } },
          ],
          'campaign-8': [{ type: 'CampaignCreated', data: matching({ campaignId: 8, code: 'SUMMER-2026' }) }],
        }),
      ));
});
