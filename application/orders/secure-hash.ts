/**
 * The webhooks' secure_hash (spec 002 part A, "Authentication"; docs/orders-signing.md, "Signing", with test vectors):
 * lowercase hex of HMAC-SHA256(secretKey, string_to_sign), where string_to_sign joins the values of a fixed list of
 * fields with `|`, in alphabetical order of the field names. Fields marked "only if present" enter only when the
 * webhook carries them; amounts enter as their integer part. Compared in constant time.
 */
import type { OrderChanges, OrderSource, WebhookKind } from '../../domain/orders/index.js';
import { hmacSha256Hex, signatureMatches } from '../shared/signatures.js';

/** What the string to sign is made of: the webhook's envelope and order fields. */
export interface SignedWebhook {
  kind: WebhookKind;
  eventTimestamp: number;
  orderId: string;
  source?: OrderSource;
  order: OrderChanges;
}

/** An amount as it enters the string: its integer part, in plain decimal digits. */
export const integerPart = (amount: number): string => BigInt(Math.trunc(amount)).toString();

/** The fields of the string to sign, in order, as [name, value] (a test names them; the hash joins the values). */
export function signedFields(webhook: SignedWebhook): [string, string][] {
  const { order } = webhook;
  const timestamp = String(webhook.eventTimestamp);
  const amounts = order.amounts;
  switch (webhook.kind) {
    case 'CREATED': {
      const present = (name: 'branch_id' | 'business_unit_id' | 'seller_merchant_id'): [string, string][] =>
        order[name] === undefined ? [] : [[name, order[name]]];
      return [
        ...present('branch_id'),
        ...present('business_unit_id'),
        ['event_timestamp', timestamp],
        ['grand_total', integerPart(amounts?.grand_total ?? 0)],
        ['miniapp_id', webhook.source?.miniapp_id ?? ''],
        ['order_id', webhook.orderId],
        ['platform_code', webhook.source?.platform_code ?? ''],
        ...present('seller_merchant_id'),
        ['total_amount', integerPart(amounts?.total_amount ?? 0)],
      ];
    }
    case 'UPDATED':
      // "with amounts" when order.amounts carries grand_total and total_amount (the schema demands both or neither).
      if (amounts?.grand_total !== undefined && amounts.total_amount !== undefined)
        return [
          ['event_timestamp', timestamp],
          ['grand_total', integerPart(amounts.grand_total)],
          ['order_id', webhook.orderId],
          ['total_amount', integerPart(amounts.total_amount)],
        ];
      return [
        ['event_timestamp', timestamp],
        ['order_id', webhook.orderId],
      ];
    case 'CANCELLED':
      return [
        ['event_timestamp', timestamp],
        ['order_id', webhook.orderId],
      ];
  }
}

export const stringToSign = (webhook: SignedWebhook): string =>
  signedFields(webhook)
    .map(([, value]) => value)
    .join('|');

export const secureHashOf = (secretKey: string, webhook: SignedWebhook): string =>
  hmacSha256Hex(secretKey, stringToSign(webhook));

/** Whether `presented` is the webhook's secure_hash under `secretKey` (constant time). */
export const secureHashMatches = (secretKey: string, webhook: SignedWebhook, presented: string): boolean =>
  signatureMatches(presented, secureHashOf(secretKey, webhook));
