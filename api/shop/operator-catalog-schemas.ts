/**
 * Bodies and answers of the operator API's catalog endpoints: voucher
 * categories, campaign detail and banner changes, voucher pool changes. Like
 * operator-schemas.ts, they check shape and type only. Change bodies keep
 * keys they do not list (passthrough), so the services refuse a field that
 * cannot change (`code`, `pricing`, ...) by name instead of it being dropped
 * silently.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { campaignSchema, createCampaignBody, poolSchema } from './operator-schemas.js';

extendZodWithOpenApi(z);

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

// ---- voucher categories ----

export const categoryNameBody = z
  .object({ name: z.string().describe('1 to 100 characters, trimmed, e.g. "Ẩm thực"') })
  .openapi('VoucherCategoryNameRequest');

export const categorySchema = z
  .object({ id: z.number().int(), name: z.string(), createdAt: instant('UTC'), updatedAt: instant('UTC') })
  .openapi('VoucherCategory');

// ---- campaigns ----

export const updateCampaignBody = z
  .object({
    name: z.string(),
    description: z.string(),
    campaignTag: z.string().describe('upper-case code, e.g. HOT_DEAL, FLASH_SALE'),
    displayPriority: z.number().int().describe('>= 1'),
    themeUrl: z.string().openapi({ format: 'uri' }),
    startAt: instant('ISO 8601 date-time with offset'),
    endAt: instant('after startAt'),
    presale: campaignSchema.shape.presale.describe('null turns presale off; presale.startAt must stay before startAt'),
  })
  .partial()
  .passthrough()
  .openapi('UpdateCampaignRequest', {
    description: 'Only the fields given change; code, type, status and banners cannot change here.',
  });

export const campaignBannerBody = createCampaignBody.shape.banners.element;

export const updateCampaignBannerBody = campaignBannerBody
  .partial()
  .passthrough()
  .openapi('UpdateCampaignBannerRequest', { description: 'Only the fields given change; the id cannot.' });

// ---- voucher pools ----

export const updatePoolBody = z
  .object({
    display: poolSchema.shape.display.partial().passthrough().openapi('PoolDisplayChange'),
    terms: poolSchema.shape.terms.partial().passthrough().openapi('PoolTermsChange'),
    categoryId: z.number().int().describe('a created category (any integer >= 0 while none exists)'),
    miniAppIds: z.array(z.string()),
    validity: poolSchema.shape.validity,
  })
  .partial()
  .passthrough()
  .openapi('UpdateVoucherPoolRequest', {
    description:
      'Only the parts given change, display and terms field by field; stock and pricing have their own endpoints.',
  });
