/**
 * Bodies and answers of the operator API's catalog endpoints: voucher categories, campaign detail and banner changes,
 * voucher pool changes. Like operator-schemas.ts, a parsed body is the typed command. A change names at least one
 * field and only fields that can change there: anything else (`code`, `pricing`, ...) is refused by name, never
 * dropped silently.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { campaignDetailFields, poolChangeFields } from '../../application/shop/index.js';
import {
  bannerInputFields,
  createCampaignBody,
  dateTimeInput,
  poolSchema,
  presaleInput,
  text,
} from './operator-schemas.js';

extendZodWithOpenApi(z);

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

/** Some of the fields of `object`, refusing any other by name. */
const someOf = <T extends z.ZodRawShape>(object: z.ZodObject<T>) =>
  object.partial().strict(`cannot be changed here; changeable: ${Object.keys(object.shape).join(', ')}`);

/** Some of the fields of `shape`, at least one (`what` names the body in the refusal of an empty one). */
function change<T extends z.ZodRawShape>(shape: T, what: string) {
  const fields = Object.keys(shape).join(', ');
  return someOf(z.object(shape)).refine((value) => Object.values(value).some((v) => v !== undefined), {
    message: `must name at least one of ${fields}`,
    path: [what],
  });
}

// ---- voucher categories ----

export const categoryNameBody = z
  .object({
    name: text(1, 100).describe('1 to 100 characters, trimmed, e.g. "Ẩm thực"'),
  })
  .openapi('VoucherCategoryNameRequest');

export const categorySchema = z
  .object({ id: z.number().int(), name: z.string(), createdAt: instant('UTC'), updatedAt: instant('UTC') })
  .openapi('VoucherCategory');

// ---- campaigns ----

const { shape: campaign } = createCampaignBody;
const detailInputs = {
  name: campaign.name,
  description: campaign.description,
  campaignTag: campaign.campaignTag,
  displayPriority: campaign.displayPriority,
  themeUrl: campaign.themeUrl,
  startAt: dateTimeInput('ISO 8601 date-time with offset'),
  endAt: dateTimeInput('after startAt'),
  presale: presaleInput.nullable().describe('null turns presale off; presale.startAt must stay before startAt'),
} satisfies Record<(typeof campaignDetailFields)[number], z.ZodTypeAny>;

export const updateCampaignBody = change(detailInputs, 'details').openapi('UpdateCampaignRequest', {
  description: 'Only the fields given change; code, type, status and banners cannot change here.',
});

export const campaignBannerBody = campaign.banners.element;

export const updateCampaignBannerBody = change(bannerInputFields, 'banner').openapi('UpdateCampaignBannerRequest', {
  description: 'Only the fields given change; the id cannot.',
});

// ---- voucher pools ----

const { shape: pool } = poolSchema;
const poolChanges = {
  display: someOf(pool.display).openapi('PoolDisplayChange'),
  terms: someOf(pool.terms).openapi('PoolTermsChange'),
  categoryId: z.number().int().describe('a created category (any integer >= 0 while none exists)'),
  miniAppIds: z.array(z.string()),
  validity: pool.validity,
} satisfies Record<(typeof poolChangeFields)[number], z.ZodTypeAny>;

export const updatePoolBody = change(poolChanges, 'changes').openapi('UpdateVoucherPoolRequest', {
  description:
    'Only the parts given change, display and terms field by field; stock and pricing have their own endpoints.',
});
