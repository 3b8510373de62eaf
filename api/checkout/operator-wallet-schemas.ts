/**
 * The operator API's bodies and answers for issued promotions (docs/checkout.md, "Issuing"), in the checkout's
 * snake_case: issue a master's promotions to users, read one, cancel one.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { IssuedView, Recipient } from '../../application/checkout/index.js';
import { matching, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

const userId = matching(/^[\x21-\x7e]{1,128}$/, '1 to 128 printable ASCII characters').describe(
  'the wallet owner, as the checkout names it (X-App-User-Id)',
);

/** Codes typed by people: letters, digits and dashes, compared as given. */
const importedCode = matching(/^[A-Za-z0-9-]{4,64}$/, '4 to 64 letters, digits or "-"');

export const issuePromotionsBody = z
  .object({
    recipients: z
      .array(
        z
          .object({
            user_id: userId,
            code: importedCode.optional().describe('an imported code, unique per master; absent: one is generated'),
          })
          .strict(),
      )
      .min(1)
      .max(1000)
      .describe('1 to 1000 recipients; a user may appear more than once (one promotion each)'),
  })
  .strict()
  .transform((b): Recipient[] => b.recipients.map((r) => ({ userId: r.user_id, ...(r.code && { code: r.code }) })))
  .openapi('IssuePromotionsRequest');

export const issuedSchema = z
  .object({ promotion_id: z.number().int(), user_id: z.string(), code: z.string() })
  .openapi('IssuedPromotionCode');

export const issuedListSchema = z.object({ promotion_master_id: z.number().int(), issued: z.array(issuedSchema) });

export const issuedJson = (promotionMasterId: number, issued: IssuedView[]) => ({
  promotion_master_id: promotionMasterId,
  issued: issued.map((i) => ({ promotion_id: i.promotionId, user_id: i.userId, code: i.code })),
});

export const issuedPromotionSchema = z
  .object({
    promotion_id: z.number().int(),
    promotion_master_id: z.number().int(),
    user_id: z.string(),
    code: z.string(),
    status: z.enum(['ISSUED', 'RESERVED', 'USED', 'CANCELLED', 'EXPIRED']),
    source: z.enum(['OPERATOR', 'SHOP']),
    valid_from: z.string().openapi({ format: 'date-time' }),
    valid_until: z.string().openapi({ format: 'date-time' }),
    reservation_key: z.string().nullable(),
    order_id: z.string().nullable(),
    issued_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('IssuedPromotion');

export function issuedPromotionJson(p: {
  promotionId: number;
  promotionMasterId: number;
  userId: string;
  code: string;
  status: z.infer<typeof issuedPromotionSchema>['status'];
  source: { kind: 'OPERATOR' | 'SHOP' };
  validFrom: string;
  validUntil: string;
  reservationKey: string | null;
  orderId: string | null;
  issuedAt: string;
}): z.infer<typeof issuedPromotionSchema> {
  return {
    promotion_id: p.promotionId,
    promotion_master_id: p.promotionMasterId,
    user_id: p.userId,
    code: p.code,
    status: p.status,
    source: p.source.kind,
    valid_from: p.validFrom,
    valid_until: p.validUntil,
    reservation_key: p.reservationKey,
    order_id: p.orderId,
    issued_at: p.issuedAt,
  };
}

export const cancelBody = z
  .object({ reason: text(1, 500).optional().describe('why, for the record') })
  .strict()
  .openapi('CancelIssuedPromotionRequest');
