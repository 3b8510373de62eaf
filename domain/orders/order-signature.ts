/**
 * One secure_hash, one webhook (docs/orders-signing.md, "One signature, one webhook"): the seed's string to sign
 * covers a few fields, so the same secure_hash would stand for any body that repeats them, on any of the three
 * endpoints (an update without amounts and a cancellation sign the same string). The first webhook a merchant's
 * secure_hash brings claims it (guard stream orderSignature-<digest>) with what it said; that webhook again finds its
 * own claim, and anything else under the hash is refused (SECURE_HASH_REUSED).
 */
import type { OrderChangeData, OrderEvent, OrderSignatureClaimed, WebhookKind } from './events.js';

/** The claim the webhook whose decision starts with `first` makes of its secure_hash (none for a discard). */
export function orderSignatureClaimed(first: OrderEvent): OrderSignatureClaimed | null {
  const claim = (
    kind: WebhookKind,
    d: Pick<OrderChangeData, 'merchantId' | 'orderId' | 'eventTimestamp' | 'fingerprint' | 'receivedAt'>,
  ): OrderSignatureClaimed => ({
    type: 'OrderSignatureClaimed',
    data: {
      merchantId: d.merchantId,
      orderId: d.orderId,
      kind,
      eventTimestamp: d.eventTimestamp,
      fingerprint: d.fingerprint,
      claimedAt: d.receivedAt,
    },
  });
  switch (first.type) {
    case 'OrderCreated':
      return claim('CREATED', first.data);
    case 'OrderUpdated':
      return claim('UPDATED', first.data);
    case 'OrderCancelled':
      return claim('CANCELLED', first.data);
    case 'OrderEventParked':
      return claim(first.data.kind, first.data);
    case 'OrderEarlyEventDiscarded':
      return null;
  }
}

/**
 * What a claim holds the signature to: the endpoint (kind) and the content (the fingerprint, which for a created
 * leaves out event_timestamp, so it is named here too). Two webhooks with the same secure_hash are one webhook sent
 * again exactly when these are equal; the claim's event id is made from it, so the same webhook finds the claim as
 * its own.
 */
export const signedWebhookIdentity = (claim: OrderSignatureClaimed['data']): string =>
  `${claim.kind}/${claim.eventTimestamp}/${claim.fingerprint}`;
