/**
 * The checkout's aggregates as their streams say (strongly consistent), read through the context's decoder: what its
 * services decide on and answer from.
 */
import {
  checkoutDecoders,
  checkoutError,
  issuedPromotionDecider,
  promotionMasterDecider,
  streams,
  type PromotionMasterState,
} from '../../domain/checkout/index.js';
import { loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';

export const loadPromotionMaster = (store: EventStore, promotionMasterId: number) =>
  loadAggregate(
    store,
    promotionMasterDecider,
    checkoutDecoders.promotionMaster,
    streams.promotionMaster(promotionMasterId),
  );

/** The master, or PROMOTION_MASTER_NOT_FOUND. */
export async function existingMaster(
  store: EventStore,
  promotionMasterId: number,
): Promise<Exclude<PromotionMasterState, { status: 'NONE' }>> {
  const { state } = await loadPromotionMaster(store, promotionMasterId);
  if (state.status === 'NONE')
    throw checkoutError('PROMOTION_MASTER_NOT_FOUND', `promotion master ${promotionMasterId} does not exist`, {
      promotionMasterId,
    });
  return state;
}

export const loadIssuedPromotion = (store: EventStore, promotionId: number) =>
  loadAggregate(store, issuedPromotionDecider, checkoutDecoders.issuedPromotion, streams.issuedPromotion(promotionId));
