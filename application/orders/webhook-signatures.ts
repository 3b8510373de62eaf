/**
 * The guard claim of a webhook's secure_hash (docs/orders-signing.md, "One signature, one webhook"; the rule in
 * domain/orders/order-signature.ts): written in the same append as the order's events, on the stream named by the
 * sha256 of the merchant and the hash, with an event id made from what the webhook said. The same webhook sent again
 * (another X-Request-Id, a parked event resent after its discard) writes the same id and finds the claim its own; any
 * other content under the hash loses the claim and nothing of it is written.
 */
import { createHash } from 'node:crypto';
import {
  orderSignatureClaimed,
  ordersError,
  signedWebhookIdentity,
  streams,
  type OrderEvent,
} from '../../domain/orders/index.js';
import { canonicalJson } from '../../domain/shared/canonical-json.js';
import type { GuardClaim } from '../shared/guard-claims.js';

/**
 * Names a merchant's secure_hash. The hash alone, not the order_id and event_timestamp beside it: a secure_hash names
 * its string to sign, so a body that reads the same string with its values moved across fields (another order_id)
 * is still that signature. Lowercase: the hash is compared as case-insensitive hex.
 */
export const signatureDigest = (merchantId: string, secureHash: string): string =>
  createHash('sha256')
    .update(canonicalJson(['orderSignature', merchantId, secureHash.toLowerCase()]), 'utf8')
    .digest('hex');

/** The claim of `secureHash` by the webhook whose decided events are `decided` (none when it decided nothing). */
export function signatureClaims(merchantId: string, secureHash: string, decided: readonly OrderEvent[]): GuardClaim[] {
  const claimed = decided[0] && orderSignatureClaimed(decided[0]);
  if (!claimed) return [];
  const digest = signatureDigest(merchantId, secureHash);
  return [
    {
      streamName: streams.orderSignature(digest),
      event: claimed,
      idName: `OrderSignatureClaimed:${digest}:${signedWebhookIdentity(claimed.data)}`,
      lost: () =>
        ordersError(
          'SECURE_HASH_REUSED',
          'secure_hash was used already for another webhook (another body, endpoint or order): sign each event ' +
            'with its own event_timestamp; a retry must resend the same body to the same endpoint',
          { field: 'secure_hash' },
        ),
    },
  ];
}
