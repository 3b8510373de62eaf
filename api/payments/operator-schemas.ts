/**
 * The payment hub's onboarding bodies and answers (operator API, /operator/v1/payment-merchants), in the hub's
 * camelCase. Forms are checked here (400 OPS-REQ-001 naming the field); rules between fields stay with the decider.
 * docs/payments.md, "Onboarding".
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  methodSupportsHolding,
  transactionStatuses,
  paymentMethodTypes,
  type ConfiguredMethod,
  type PaymentMerchant,
  type PaymentMethodConfig,
} from '../../application/payments/index.js';
import { absoluteUrl, dateTimeInput, integer, matching, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

export const codePattern = /^[A-Za-z0-9_-]{1,64}$/;
const code = (what: string) => matching(codePattern, '1 to 64 letters, digits, "_" or "-"').describe(what);

export const onboardMerchantBody = z
  .object({
    merchantCode: code('the merchant (mini-app) code; part of its stream name'),
    name: text(1, 200),
    ipnUrl: absoluteUrl(true).describe(
      'where the hub posts IPNs; refused (400) where the egress policy would not send: loopback, private, link-local ' +
        'or metadata addresses, localhost, plain http in production (docs/outbound.md)',
    ),
    maxIpnRetries: integer(0).max(50, 'must be at most 50').describe('IPN retries after the first attempt'),
  })
  .strict()
  .openapi('OnboardPaymentMerchantRequest');

export const changeIpnBody = z
  .object({ ipnUrl: absoluteUrl(true).optional(), maxIpnRetries: integer(0).max(50, 'must be at most 50').optional() })
  .strict()
  .openapi('ChangePaymentMerchantIpnRequest');

export const rotateSecretBody = z
  .object({
    overlapSeconds: integer(0)
      .max(30 * 86_400, 'must be at most 30 days')
      .optional()
      .describe('how long the previous secretKey still verifies (default PAYMENTS_SECRET_OVERLAP_SECONDS)'),
  })
  .strict();

export const addTerminalBody = z
  .object({ terminalId: code('the terminal (receiving account) id'), name: text(1, 200) })
  .strict()
  .openapi('AddTerminalRequest');

export const issuePaymentApiKeyBody = z
  .object({ expiresAt: dateTimeInput('when the key stops working; absent or null: never').nullish() })
  .strict()
  .transform((b) => ({ expiresAt: b.expiresAt ?? null }));

const currencyLimit = z
  .object({
    currency: matching(/^[A-Z]{3}$/, 'an ISO 4217 code such as VND'),
    minAmount: integer(0),
    maxAmount: integer(1),
  })
  .strict();

export const paymentMethodBody = z
  .object({
    type: z.enum(paymentMethodTypes),
    category: matching(/^[A-Z0-9_]{1,32}$/, 'upper-case letters, digits or _ (e.g. CREDIT, DEBIT)'),
    names: z.object({ vi: text(1, 100), en: text(1, 100) }).strict(),
    iconUrl: absoluteUrl(true),
    supportsTokenization: z.boolean().default(false),
    requiresRedirect: z.boolean(),
    verificationAmount: integer(0).nullish(),
    sortOrder: integer(0),
    autoCapture: z.boolean().nullish().describe('only where every provider can hold; null: not configurable'),
    twoDMerchantId: text(1, 64)
      .nullish()
      .describe("CARD only: the provider's merchant id for 2D payments; absent: paymentType 2D falls back to 3D"),
    enabled: z.boolean().default(true),
    providers: z
      .array(
        z
          .object({
            providerCode: matching(/^[A-Z0-9_]{1,64}$/, 'a provider code such as SANDBOX_WALLET'),
            priority: integer(0).describe('smallest wins'),
            currencies: z.array(currencyLimit).max(20),
          })
          .strict(),
      )
      .max(10),
  })
  .strict()
  .openapi('PaymentMethodConfig');

export const methodCodePattern = /^[A-Z0-9_]{1,64}$/;

export function methodConfigOf(code: string, b: z.infer<typeof paymentMethodBody>): PaymentMethodConfig {
  return {
    code,
    type: b.type,
    category: b.category,
    names: b.names,
    iconUrl: b.iconUrl,
    supportsTokenization: b.supportsTokenization,
    requiresRedirect: b.requiresRedirect,
    verificationAmount: b.verificationAmount ?? null,
    sortOrder: b.sortOrder,
    autoCapture: b.autoCapture ?? null,
    twoDMerchantId: b.twoDMerchantId ?? null,
    enabled: b.enabled,
    providers: b.providers,
  };
}

const methodJson = (m: ConfiguredMethod) => ({
  paymentMethodId: m.paymentMethodId,
  code: m.code,
  type: m.type,
  category: m.category,
  names: m.names,
  iconUrl: m.iconUrl,
  supportsTokenization: m.supportsTokenization,
  requiresRedirect: m.requiresRedirect,
  verificationAmount: m.verificationAmount,
  sortOrder: m.sortOrder,
  // Holding support follows the providers: every one of them must hold (docs/payments.md, "Payment methods").
  supportsHolding: methodSupportsHolding(m),
  autoCapture: m.autoCapture,
  twoDMerchantId: m.twoDMerchantId ?? null,
  enabled: m.enabled,
  providers: m.providers,
  configuredBy: m.configuredBy,
  configuredAt: m.configuredAt,
});

/** The merchant as operators see it: never a key, a secret, or their digests or ciphertexts. */
export function merchantJson(m: PaymentMerchant) {
  return {
    merchantCode: m.merchantCode,
    name: m.name,
    ipnUrl: m.ipnUrl,
    maxIpnRetries: m.maxIpnRetries,
    onboardedBy: m.onboardedBy,
    onboardedAt: m.onboardedAt,
    updatedAt: m.updatedAt,
    secretKeys: m.secrets.map((s) => ({ secretId: s.secretId, issuedAt: s.issuedAt, validUntil: s.validUntil })),
    terminals: m.terminals.map((t) => ({
      terminalId: t.terminalId,
      name: t.name,
      addedBy: t.addedBy,
      addedAt: t.addedAt,
      apiKeys: t.apiKeys.map((k) => ({
        apiKeyId: k.apiKeyId,
        prefix: k.prefix,
        status: k.status,
        expiresAt: k.expiresAt,
        createdBy: k.createdBy,
        createdAt: k.createdAt,
        updatedBy: k.updatedBy,
        updatedAt: k.updatedAt,
      })),
      paymentMethods: t.methods.map(methodJson),
    })),
  };
}

/** Documented loosely: the answers are the JSON built above (merchantJson). */
export const merchantSchema = z.record(z.unknown()).openapi('PaymentMerchant');

/** `limit` of the operators' lists: 1 to 500 (each list says its default). */
export const listLimit = z
  .string()
  .regex(/^[1-9][0-9]{0,2}$/, 'must be an integer from 1 to 500')
  .transform(Number)
  .refine((n) => n <= 500, 'must be an integer from 1 to 500')
  .optional();

/** GET …/transactions: filters of the operators' list. */
export const transactionListQuery = z
  .object({
    status: z.enum(transactionStatuses).optional(),
    terminalId: matching(codePattern, 'a terminal id').optional(),
    limit: listLimit,
  })
  .strict();
