/**
 * An operator's issue of a master's promotions to users (stream promotionAllotment-<allotmentId>), decided once
 * before the promotions are issued one by one (docs/checkout.md, "Issuing"): only from an ACTIVE master inside its
 * validity, to at least one recipient. The command carries the master's state as the application read it.
 */
import type { Decider } from '../shared/decider.js';
import { checkoutError } from './errors.js';
import type { Allotment, PromotionsAllotted } from './events.js';
import type { PromotionMasterState } from './promotion-master.js';

export type PromotionAllotmentState = { readonly status: 'NONE' } | { readonly status: 'ALLOTTED' };

export type PromotionAllotmentCommand = {
  type: 'AllotPromotions';
  allotmentId: string;
  master: PromotionMasterState;
  allotments: Allotment[];
  now: string;
};

const invalid = (field: string, message: string) => checkoutError('INVALID_PROMOTION_MASTER', message, { field });

function decide(command: PromotionAllotmentCommand, state: PromotionAllotmentState): PromotionsAllotted[] {
  const { master } = command;
  if (state.status !== 'NONE') return []; // the same allotment again
  if (master.status === 'NONE') throw checkoutError('PROMOTION_MASTER_NOT_FOUND', 'no such promotion master');
  const { promotionMasterId } = master;
  // Issuing is for users who can still use it: an ended or paused master issues nothing.
  if (master.status !== 'ACTIVE')
    throw invalid('promotion_master_id', `promotion master ${promotionMasterId} is ${master.status}`);
  if (Date.parse(command.now) >= Date.parse(master.validUntil))
    throw invalid('promotion_master_id', `promotion master ${promotionMasterId} ended at ${master.validUntil}`);
  if (command.allotments.length === 0) throw invalid('recipients', 'name at least one recipient');
  return [
    {
      type: 'PromotionsAllotted',
      data: {
        allotmentId: command.allotmentId,
        promotionMasterId,
        allotments: command.allotments,
        allottedAt: command.now,
      },
    },
  ];
}

export const promotionAllotmentDecider: Decider<
  PromotionAllotmentCommand,
  PromotionAllotmentState,
  PromotionsAllotted
> = {
  initialState: { status: 'NONE' },
  decide,
  evolve: () => ({ status: 'ALLOTTED' }),
};
