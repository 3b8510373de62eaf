import { expect } from 'chai';
import type { z } from 'zod';
import {
  campaignBannerBody,
  categoryNameBody,
  updateCampaignBannerBody,
  updateCampaignBody,
  updatePoolBody,
} from '../../../api/shop/operator-catalog-schemas.js';
import {
  campaignStatusBody,
  createCampaignBody,
  issueApiKeyBody,
  registerMerchantBody,
} from '../../../api/shop/operator-schemas.js';
import { issueField, issueMessage } from '../../../api/shared/validation.js';

/** The field the operator API names for `body` (as its router does), or undefined when the schema takes it. */
function refusedField(schema: z.ZodTypeAny, body: unknown): string | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const field = issueField(issue);
  expect(issueMessage(issue, field)).to.include(field);
  return field;
}

const banner0 = {
  channelCode: 'APP',
  positionCode: 'CAROUSEL',
  assetUrl: 'https://cdn.example.com/b1.png',
  assetType: 'IMAGE',
  altText: 'Summer',
  clickUrl: 'superapp://campaigns/summer',
  displayOrder: 1,
};
const presale = {
  enabled: true,
  startAt: '2026-05-25T00:00:00+07:00',
  countdownEnabled: true,
  teaserText: ' Coming soon ',
  teaserImageUrl: 'https://cdn.example.com/teaser.png',
};
const campaign = {
  code: 'SUMMER-2026',
  name: '  Summer deals ',
  description: 'Hot vouchers all summer',
  campaignTag: 'HOT_DEAL',
  type: 'SELL',
  displayPriority: 1,
  themeUrl: 'https://cdn.example.com/themes/summer.png',
  startAt: '2026-06-01T00:00:00+07:00',
  endAt: '2026-08-31T23:59:59+07:00',
  presale,
  banners: [banner0, { ...banner0, clickUrl: undefined }],
};

describe('operator API schemas: the typed commands of the operator API', () => {
  describe('create a campaign', () => {
    it('gives the command with text trimmed, times in UTC and a missing clickUrl as null', () => {
      const parsed = createCampaignBody.parse(campaign);
      expect(parsed).to.deep.include({
        name: 'Summer deals',
        startAt: '2026-05-31T17:00:00.000Z',
        endAt: '2026-08-31T16:59:59.000Z',
      });
      expect(parsed.presale).to.deep.include({ startAt: '2026-05-24T17:00:00.000Z', teaserText: 'Coming soon' });
      expect(parsed.banners.map((b) => b.clickUrl)).to.deep.equal(['superapp://campaigns/summer', null]);
      expect(createCampaignBody.parse({ ...campaign, presale: undefined }).presale).to.equal(null);
    });

    const refusals: [string, Record<string, unknown>][] = [
      ['code', { code: 'has space' }],
      ['code', { code: '' }],
      ['name', { name: '   ' }],
      ['name', { name: 'n'.repeat(201) }],
      ['description', { description: 42 }],
      ['campaignTag', { campaignTag: 'hot_deal' }],
      ['campaignTag', { campaignTag: 'T'.repeat(33) }],
      ['type', { type: '' }],
      ['displayPriority', { displayPriority: 0 }],
      ['displayPriority', { displayPriority: 1.5 }],
      ['displayPriority', { displayPriority: '1' }],
      ['themeUrl', { themeUrl: 'not a url' }],
      ['themeUrl', { themeUrl: 'javascript:alert(1)' }],
      ['startAt', { startAt: '2026-06-01' }],
      ['startAt', { startAt: '2026-01-01T00:00:00' }],
      ['startAt', { startAt: '2026-02-30T00:00:00Z' }],
      ['endAt', { endAt: 'soon' }],
      ['presale', { presale: 'yes' }],
      ['presale.startAt', { presale: { enabled: true } }],
      ['presale.enabled', { presale: { ...presale, enabled: 'true' } }],
      ['presale.countdownEnabled', { presale: { ...presale, countdownEnabled: undefined } }],
      ['presale.teaserText', { presale: { ...presale, teaserText: null } }],
      ['presale.teaserImageUrl', { presale: { ...presale, teaserImageUrl: 'ftp://cdn.example.com/t.png' } }],
      ['banners', { banners: null }],
      ['banners', { banners: Array.from({ length: 51 }, () => banner0) }],
      ['banners[1]', { banners: [banner0, null] }],
      ['banners[0].channelCode', { banners: [{ ...banner0, channelCode: 'TV' }] }],
      ['banners[0].positionCode', { banners: [{ ...banner0, positionCode: 'FOOTER' }] }],
      ['banners[0].assetUrl', { banners: [{ ...banner0, assetUrl: '/relative.png' }] }],
      ['banners[0].assetType', { banners: [{ ...banner0, assetType: 'GIF' }] }],
      ['banners[0].altText', { banners: [{ ...banner0, altText: undefined }] }],
      ['banners[0].clickUrl', { banners: [{ ...banner0, clickUrl: 'nowhere' }] }],
      ['banners[0].displayOrder', { banners: [{ ...banner0, displayOrder: -1 }] }],
    ];
    for (const [field, change] of refusals) {
      it(`refuses ${JSON.stringify(change).slice(0, 70)} on ${field}`, () => {
        expect(refusedField(createCampaignBody, { ...campaign, ...change })).to.equal(field);
      });
    }

    it('refuses an unknown status on status', () => {
      expect(refusedField(campaignStatusBody, { status: 'LIVE' })).to.equal('status');
      expect(campaignStatusBody.parse({ status: 'APPROVED' })).to.deep.equal({ status: 'APPROVED' });
    });
  });

  describe('change a campaign', () => {
    it('gives only the details sent, trimmed and in UTC; presale null turns it off', () => {
      expect(updateCampaignBody.parse({ name: ' Siêu sale ', endAt: '2027-12-31T07:00:00+07:00' })).to.deep.equal({
        name: 'Siêu sale',
        endAt: '2027-12-31T00:00:00.000Z',
      });
      expect(updateCampaignBody.parse({ presale: null })).to.deep.equal({ presale: null });
    });

    const refusals: [string, unknown][] = [
      ['details', {}],
      ['code', { code: 'OTHER' }],
      ['type', { type: 'GIFT' }],
      ['status', { status: 'ACTIVE' }],
      ['banners', { banners: [] }],
      ['name', { name: '' }],
      ['name', { name: 7 }],
      ['campaignTag', { campaignTag: 'flash' }],
      ['displayPriority', { displayPriority: 0 }],
      ['themeUrl', { themeUrl: 'javascript:alert(1)' }],
      ['themeUrl', { themeUrl: 'ftp://x' }],
      ['startAt', { startAt: 'tomorrow' }],
      ['presale.startAt', { presale: { enabled: true } }],
      ['presale.enabled', { presale: { ...presale, enabled: 'yes' } }],
    ];
    for (const [field, changes] of refusals) {
      it(`refuses ${JSON.stringify(changes).slice(0, 60)} on ${field}`, () => {
        expect(refusedField(updateCampaignBody, changes)).to.equal(field);
      });
    }
  });

  describe('banners', () => {
    const webTop = {
      channelCode: 'WEB',
      positionCode: 'DETAIL_TOP',
      assetUrl: 'https://cdn.example.vn/w.mp4',
      assetType: 'VIDEO',
      altText: '',
      displayOrder: 2,
    };

    it('gives a new banner with clickUrl null when none is sent', () => {
      expect(campaignBannerBody.parse(webTop)).to.deep.equal({ ...webTop, clickUrl: null });
    });

    for (const [field, banner] of [
      ['channelCode', { ...webTop, channelCode: 'TV' }],
      ['positionCode', { ...webTop, positionCode: 'FOOTER' }],
      ['assetUrl', { ...webTop, assetUrl: '/x.png' }],
      ['assetType', { ...webTop, assetType: 'GIF' }],
      ['displayOrder', { ...webTop, displayOrder: 1.5 }],
      ['clickUrl', { ...webTop, clickUrl: 'nowhere' }],
    ] as const) {
      it(`refuses a new banner with a bad ${field}`, () => {
        expect(refusedField(campaignBannerBody, banner)).to.equal(field);
      });
    }

    it('takes a change of some fields, and refuses an empty change, the id or a bad value by name', () => {
      expect(updateCampaignBannerBody.parse({ altText: ' Hè ', clickUrl: null })).to.deep.equal({
        altText: 'Hè',
        clickUrl: null,
      });
      expect(refusedField(updateCampaignBannerBody, {})).to.equal('banner');
      expect(refusedField(updateCampaignBannerBody, { id: 5 })).to.equal('id');
      expect(refusedField(updateCampaignBannerBody, { channelCode: 'SMS' })).to.equal('channelCode');
      expect(refusedField(updateCampaignBannerBody, { displayOrder: -1 })).to.equal('displayOrder');
    });
  });

  describe('categories', () => {
    it('gives the name trimmed', () => {
      expect(categoryNameBody.parse({ name: '  Ẩm thực ' })).to.deep.equal({ name: 'Ẩm thực' });
    });

    for (const name of ['', '   ', 42, null, 'x'.repeat(101), undefined]) {
      it(`refuses name ${JSON.stringify(name)?.slice(0, 20)} on name`, () => {
        expect(refusedField(categoryNameBody, { name })).to.equal('name');
      });
    }
  });

  describe('merchants and keys', () => {
    it('gives the name trimmed and the key expiry in UTC', () => {
      expect(
        registerMerchantBody.parse({
          merchantId: 'M0001',
          name: '  Coffee House  ',
          apiKeyExpiresAt: '2026-06-01T00:00:00+07:00',
        }),
      ).to.deep.equal({ merchantId: 'M0001', name: 'Coffee House', apiKeyExpiresAt: '2026-05-31T17:00:00.000Z' });
      expect(issueApiKeyBody.parse({})).to.deep.equal({});
    });

    for (const merchantId of ['', 'M 0001', 'M/1', 'x'.repeat(65), 'Mérchant', 42]) {
      it(`refuses merchant id ${JSON.stringify(merchantId)} on merchantId`, () => {
        expect(refusedField(registerMerchantBody, { merchantId, name: 'x' })).to.equal('merchantId');
      });
    }

    for (const name of ['', '   ', 'n'.repeat(201)]) {
      it(`refuses a name of ${name.length} characters on name`, () => {
        expect(refusedField(registerMerchantBody, { merchantId: 'M1', name })).to.equal('name');
      });
    }

    for (const [what, expiresAt] of Object.entries({
      'without an offset': '2027-01-01T00:00:00',
      'not a date': 'next year',
      'a day that does not exist': '2027-02-30T00:00:00Z',
      'a number': 5,
    })) {
      it(`refuses a key expiry ${what} on apiKeyExpiresAt and expiresAt`, () => {
        expect(
          refusedField(registerMerchantBody, { merchantId: 'M1', name: 'x', apiKeyExpiresAt: expiresAt }),
        ).to.equal('apiKeyExpiresAt');
        expect(refusedField(issueApiKeyBody, { expiresAt })).to.equal('expiresAt');
      });
    }
  });

  describe('change a voucher pool', () => {
    it('gives only the parts sent, display and terms field by field', () => {
      expect(
        updatePoolBody.parse({ display: { title: 'Mới' }, terms: { maxPerDay: null }, validity: null }),
      ).to.deep.equal({ display: { title: 'Mới' }, terms: { maxPerDay: null }, validity: null });
    });

    const refusals: [string, unknown][] = [
      ['changes', {}],
      ['pricing', { pricing: { faceValue: 1 } }],
      ['totalQuantity', { totalQuantity: 5 }],
      ['campaignId', { campaignId: 8 }],
      ['display', { display: 'Phở' }],
      ['display.subtitle', { display: { subtitle: 'x' } }],
      ['display.title', { display: { title: 5 } }],
      ['terms.usageType', { terms: { usageType: 'BOTH' } }],
      ['terms.colour', { terms: { colour: 'red' } }],
      ['categoryId', { categoryId: '3' }],
      ['miniAppIds', { miniAppIds: 'food' }],
      ['miniAppIds[0]', { miniAppIds: [1] }],
      ['validity.startAt', { validity: {} }],
    ];
    for (const [field, changes] of refusals) {
      it(`refuses ${JSON.stringify(changes)} on ${field}`, () => {
        expect(refusedField(updatePoolBody, changes)).to.equal(field);
      });
    }
  });
});
