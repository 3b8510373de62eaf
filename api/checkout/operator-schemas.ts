/**
 * The checkout's operator bodies and answers as zod schemas, in the checkout interface's snake_case. A body parsed by
 * its schema is the typed command (docs/conventions.md, "Commands are typed"): forms are checked here (400
 * OPS-REQ-001 naming the field), the rules between fields stay with the decider. docs/checkout.md.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  type PromotionMasterView,
  codeTypes,
  promotionMasterStatuses,
  promotionTypes,
  type PromotionMasterDefinition,
} from '../../application/checkout/index.js';
import { absoluteUrl, dateTimeInput, integer, matching, oneOf, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

const money = (what: string) => integer(0).describe(`${what}, in minor units (VND)`);
const positiveMoney = (what: string) => integer(1).describe(`${what}, in minor units (VND)`);

const discountConfig = z
  .discriminatedUnion('type', [
    z
      .object({
        type: z.literal('PERCENTAGE'),
        percentage: integer(1).max(100, 'must be an integer from 1 to 100').describe('percent off, 1 to 100'),
        max_discount: positiveMoney('the most the discount takes off'),
      })
      .strict(),
    z.object({ type: z.literal('FIXED'), amount: positiveMoney('the amount off') }).strict(),
  ])
  .openapi('DiscountConfig');

const scopes = ['PLATFORM', 'MERCHANT'] as const;
const merchantCode = matching(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 letters, digits, "_" or "-"');

/** POST /promotion-masters: the body, parsed into the typed definition. */
export const createPromotionMasterBody = z
  .object({
    title: text(1, 200).describe('shown to users; 1 to 200 characters, trimmed'),
    short_title: text(1, 50).describe('shown where space is tight; 1 to 50 characters, trimmed'),
    promotion_type: oneOf(promotionTypes),
    code_type: oneOf(codeTypes).describe('UNIQUE: one code per issued promotion; SHARED: one code for everyone'),
    discount_config: discountConfig,
    min_order_value: money('the smallest order subtotal it applies to').default(0),
    scope: oneOf(scopes).describe('PLATFORM: any merchant; MERCHANT: only merchant_id'),
    merchant_id: merchantCode.nullish().describe('the merchant code; required for scope MERCHANT, absent otherwise'),
    categories: z
      .array(text(1, 100))
      .max(100)
      .nullish()
      .describe('item categories the discount is limited to; null or absent: the whole subtotal'),
    valid_from: dateTimeInput('start of validity: ISO 8601 with offset, answered in UTC'),
    valid_until: dateTimeInput('end of validity (exclusive), after valid_from'),
    per_user_limit: integer(1).nullish().describe('uses per user; null or absent: no limit'),
    total_quota: integer(1).nullish().describe('uses in all; null or absent: no limit'),
    pin_required: z.boolean().default(false),
    logo_url: absoluteUrl(true).nullish(),
    banner_url: absoluteUrl(true).nullish(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.scope === 'MERCHANT' && !b.merchant_id)
      ctx.addIssue({ code: 'custom', path: ['merchant_id'], message: 'is required for scope MERCHANT' });
    if (b.scope === 'PLATFORM' && b.merchant_id)
      ctx.addIssue({ code: 'custom', path: ['merchant_id'], message: 'must be absent for scope PLATFORM' });
  })
  .transform((b): PromotionMasterDefinition => ({
    title: b.title,
    shortTitle: b.short_title,
    promotionType: b.promotion_type,
    codeType: b.code_type,
    discount:
      b.discount_config.type === 'PERCENTAGE'
        ? { type: 'PERCENTAGE', percentage: b.discount_config.percentage, maxDiscount: b.discount_config.max_discount }
        : { type: 'FIXED', amount: b.discount_config.amount },
    minOrderValue: b.min_order_value,
    scope: b.scope === 'MERCHANT' ? { type: 'MERCHANT', merchantId: b.merchant_id! } : { type: 'PLATFORM' },
    categories: b.categories ?? null,
    validFrom: b.valid_from,
    validUntil: b.valid_until,
    perUserLimit: b.per_user_limit ?? null,
    totalQuota: b.total_quota ?? null,
    pinRequired: b.pin_required,
    logoUrl: b.logo_url ?? null,
    bannerUrl: b.banner_url ?? null,
  }))
  .openapi('CreatePromotionMasterRequest');

/** POST /promotion-masters/{id}/status. */
export const promotionMasterStatusBody = z
  .object({ status: oneOf(promotionMasterStatuses).describe('ACTIVE, PAUSED or ENDED (final)') })
  .strict()
  .openapi('PromotionMasterStatusRequest');

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

/** A promotion master as the operator API answers it. */
export const promotionMasterSchema = z
  .object({
    promotion_master_id: z.number().int(),
    title: z.string(),
    short_title: z.string(),
    promotion_type: z.enum(promotionTypes),
    code_type: z.enum(codeTypes),
    discount_config: discountConfig,
    min_order_value: z.number().int(),
    scope: z.enum(scopes),
    merchant_id: z.string().nullable(),
    categories: z.array(z.string()).nullable(),
    valid_from: instant('UTC'),
    valid_until: instant('UTC'),
    per_user_limit: z.number().int().nullable(),
    total_quota: z.number().int().nullable(),
    pin_required: z.boolean(),
    logo_url: z.string().nullable(),
    banner_url: z.string().nullable(),
    status: z.enum(promotionMasterStatuses),
    created_at: instant('UTC'),
  })
  .openapi('PromotionMaster');

export type PromotionMasterJson = z.infer<typeof promotionMasterSchema>;

export function promotionMasterJson(m: PromotionMasterView): PromotionMasterJson {
  return {
    promotion_master_id: m.promotionMasterId,
    title: m.title,
    short_title: m.shortTitle,
    promotion_type: m.promotionType,
    code_type: m.codeType,
    discount_config:
      m.discount.type === 'PERCENTAGE'
        ? { type: 'PERCENTAGE', percentage: m.discount.percentage, max_discount: m.discount.maxDiscount }
        : { type: 'FIXED', amount: m.discount.amount },
    min_order_value: m.minOrderValue,
    scope: m.scope.type,
    merchant_id: m.scope.type === 'MERCHANT' ? m.scope.merchantId : null,
    categories: m.categories === null ? null : [...m.categories],
    valid_from: m.validFrom,
    valid_until: m.validUntil,
    per_user_limit: m.perUserLimit,
    total_quota: m.totalQuota,
    pin_required: m.pinRequired,
    logo_url: m.logoUrl,
    banner_url: m.bannerUrl,
    status: m.status,
    created_at: m.createdAt,
  };
}
