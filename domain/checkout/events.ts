/**
 * Events of the promotion checkout: the contract between its deciders, its projectors and auditors who replay them.
 * Change them only by adding optional fields or new events (anything else: a new schema version and an upcaster in
 * event-decoder.ts, docs/event-store.md#schema-versions-and-upcasting).
 *
 * Streams:
 *   promotionMaster-<promotionMasterId>    a promotion master (promotion-master.ts)
 * Times are ISO 8601 strings in UTC; amounts are integers in VND.
 */
import type { DomainEvent } from '../shared/decider.js';
import type { PromotionMasterDefinition, PromotionMasterStatus } from './promotion-master.js';

// ---- promotionMaster-<promotionMasterId> ----

export type PromotionMasterCreated = DomainEvent<
  'PromotionMasterCreated',
  PromotionMasterDefinition & { promotionMasterId: number; status: PromotionMasterStatus; createdAt: string }
>;

export type PromotionMasterEvent = PromotionMasterCreated;

export type CheckoutEvent = PromotionMasterEvent;

export const streams = {
  promotionMaster: (promotionMasterId: number) => `promotionMaster-${promotionMasterId}`,
};
