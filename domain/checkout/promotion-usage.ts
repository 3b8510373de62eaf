/**
 * Uses of a promotion master counted against a limit (stream promotionUsage-<masterId> for its total_quota,
 * promotionUsage-<masterId>:<userId> for one user's per_user_limit). A reservation holds a use from reserve until it is
 * released, expired or refunded; a confirmed one keeps it. Written in the same append as the reservation, so two
 * checkouts racing for the last use have one winner (the stream's expected version). Only masters with a limit
 * have these streams. docs/checkout.md, "Limits".
 */
import type { Decider } from '../shared/decider.js';
import { checkoutError } from './errors.js';
import type { PromotionUsageEvent } from './events.js';

export interface PromotionUsageState {
  /** Reservations holding a use. */
  readonly holders: ReadonlySet<string>;
}

export type PromotionUsageCommand =
  | {
      type: 'HoldPromotionUse';
      promotionMasterId: number;
      /** null: the master's total; else this user's uses. */
      userId: string | null;
      reservationKey: string;
      limit: number;
      now: string;
    }
  | { type: 'FreePromotionUse'; promotionMasterId: number; userId: string | null; reservationKey: string; now: string };

function decide(command: PromotionUsageCommand, state: PromotionUsageState): PromotionUsageEvent[] {
  const { promotionMasterId, userId, reservationKey } = command;
  switch (command.type) {
    case 'HoldPromotionUse':
      if (state.holders.has(reservationKey)) return [];
      if (state.holders.size >= command.limit)
        throw userId === null
          ? checkoutError('QUOTA_EXHAUSTED', `promotion master ${promotionMasterId} has no uses left`, {
              promotionMasterId,
            })
          : checkoutError('USAGE_LIMIT_REACHED', `the user used promotion master ${promotionMasterId} up`, {
              promotionMasterId,
            });
      return [{ type: 'PromotionUsageHeld', data: { promotionMasterId, userId, reservationKey, heldAt: command.now } }];
    case 'FreePromotionUse':
      if (!state.holders.has(reservationKey)) return [];
      return [
        { type: 'PromotionUsageFreed', data: { promotionMasterId, userId, reservationKey, freedAt: command.now } },
      ];
  }
}

function evolve(state: PromotionUsageState, event: PromotionUsageEvent): PromotionUsageState {
  const holders = new Set(state.holders);
  if (event.type === 'PromotionUsageHeld') holders.add(event.data.reservationKey);
  else holders.delete(event.data.reservationKey);
  return { holders };
}

/**
 * One copy of the holders for a whole stream: evolve copies them per event (a state is never changed in place), which
 * over a master's total-quota stream (one event per reserve and per release) was quadratic in its uses.
 */
function evolveMany(state: PromotionUsageState, events: readonly PromotionUsageEvent[]): PromotionUsageState {
  const holders = new Set(state.holders);
  for (const event of events)
    if (event.type === 'PromotionUsageHeld') holders.add(event.data.reservationKey);
    else holders.delete(event.data.reservationKey);
  return { holders };
}

export const promotionUsageDecider: Decider<PromotionUsageCommand, PromotionUsageState, PromotionUsageEvent> = {
  initialState: { holders: new Set() },
  decide,
  evolve,
  evolveMany,
};
