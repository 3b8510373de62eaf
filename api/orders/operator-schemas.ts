/**
 * The order view's operator bodies and answers (merchants and their webhook keys) as zod schemas, in the order view's
 * snake_case. Forms are checked here (400 OPS-REQ-001 naming the field), the rules of the keys stay with the decider.
 * docs/orders-keys.md, "Merchant keys".
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { IssuedOrderKeyView, OrderKeyView, OrderMerchantView } from '../../application/orders/index.js';
import { integer, matching, oneOf, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

/**
 * A merchant id: the accounting partner code it maps 1:1 to. No "-": the first "-" after `order-` ends the merchant
 * in an order's stream name (order-<merchantId>-<orderId>), so two merchants' orders can never share a stream.
 */
export const merchantIdForm = /^[A-Za-z0-9_]{1,64}$/;

export const registerMerchantBody = z
  .object({
    merchant_id: matching(merchantIdForm, '1 to 64 letters, digits or "_"').describe(
      'the accounting partner code the merchant maps to, 1:1',
    ),
    name: text(1, 200).describe('1 to 200 characters, trimmed'),
  })
  .strict()
  .transform((b) => ({ merchantId: b.merchant_id, name: b.name }))
  .openapi('RegisterOrderMerchantRequest');

const environments = ['live', 'test'] as const;

export const issueKeyBody = z
  .object({ environment: oneOf(environments).describe('live: production; test: staging and UAT') })
  .strict()
  .openapi('IssueOrderKeyRequest');

export const rotateKeyBody = z
  .object({
    overlap_hours: integer(0)
      .max(24 * 90, 'must be an integer from 0 to 2160')
      .optional()
      .describe('how long the old key keeps working (default ORDERS_KEY_ROTATION_OVERLAP_HOURS)'),
  })
  .strict()
  .openapi('RotateOrderKeyRequest');

const instant = z.string().openapi({ format: 'date-time' });

export const orderKeySchema = z
  .object({
    key_id: z.number().int(),
    environment: z.enum(environments),
    prefix: z.string().describe('the first characters of the apiKey, to tell keys apart'),
    status: z.enum(['ACTIVE', 'RETIRING', 'REVOKED']),
    rotated_from: z.number().int().nullable(),
    issued_at: instant,
    retires_at: instant.nullable().describe('RETIRING: refused from then on'),
    revoked_at: instant.nullable(),
  })
  .openapi('OrderKey');

export const orderMerchantSchema = z
  .object({ merchant_id: z.string(), name: z.string(), registered_at: instant, keys: z.array(orderKeySchema) })
  .openapi('OrderMerchant');

export const issuedKeySchema = z
  .object({
    key_id: z.number().int(),
    environment: z.enum(environments),
    api_key: z.string().describe('X-API-Key: shown only now'),
    secret_key: z.string().describe('signs secure_hash: shown only now, stored encrypted'),
    prefix: z.string(),
    rotated_from: z.number().int().nullable(),
    issued_at: instant,
  })
  .openapi('IssuedOrderKey');

export const orderKeyJson = (k: OrderKeyView): z.infer<typeof orderKeySchema> => ({
  key_id: k.keyId,
  environment: k.environment,
  prefix: k.prefix,
  status: k.status,
  rotated_from: k.rotatedFrom,
  issued_at: k.issuedAt,
  retires_at: k.retiresAt,
  revoked_at: k.revokedAt,
});

export const orderMerchantJson = (m: OrderMerchantView): z.infer<typeof orderMerchantSchema> => ({
  merchant_id: m.merchantId,
  name: m.name,
  registered_at: m.registeredAt,
  keys: m.keys.map(orderKeyJson),
});

export const issuedKeyJson = (k: IssuedOrderKeyView): z.infer<typeof issuedKeySchema> => ({
  key_id: k.keyId,
  environment: k.environment,
  api_key: k.apiKey,
  secret_key: k.secretKey,
  prefix: k.prefix,
  rotated_from: k.rotatedFrom,
  issued_at: k.issuedAt,
});
