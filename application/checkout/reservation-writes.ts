/**
 * The one write path of checkout reservations (docs/checkout.md, "Reservations"): a reservation's decision and what
 * follows from it in other aggregates (its promotions' transitions, the uses it holds against a master's limits) are
 * one decision over several streams (the write engine's handleMany), appended in one transaction, each stream at the
 * revision its decision was made on. Two checkouts racing for one promotion or for the last use of a quota thus have
 * one winner; the loser decides again on fresh state and gets the domain's refusal (PROMOTION_ALREADY_RESERVED,
 * QUOTA_EXHAUSTED, ...). The order's claim (one promotion per order: domain/checkout/checkout-order.ts) is one of
 * those streams: two reserves of one order have one winner too.
 */
import {
  checkoutOrderDecider,
  checkoutReservationDecider,
  type CheckoutOrderCommand,
  type CheckoutReservationCommand,
  type CheckoutReservationEvent,
  type CheckoutReservationState,
  type IssuedPromotionCommand,
  type IssuedPromotionState,
  type PromotionMasterState,
  type PromotionUsageCommand,
  type ReservedPromotion,
} from '../../domain/checkout/index.js';
import { DecideAgain, type Loaded, type SideWrite } from '../shared/aggregate.js';
import type { CommandContext } from '../shared/command-context.js';
import type { CheckoutAggregates } from './aggregates.js';

export { checkoutOrderStream } from './aggregates.js';

/** What a decision of the reservation implies for one of its promotions and the limits of its master. */
interface FollowUps {
  promotion: (reservationKey: string, now: string) => IssuedPromotionCommand | null;
  usage: 'HOLD' | 'FREE' | null;
  /** What the reservation's order claim does (domain/checkout/checkout-order.ts). */
  order: CheckoutOrderCommand['type'];
}

function followUpsOf(event: CheckoutReservationEvent): FollowUps {
  switch (event.type) {
    case 'CheckoutReserved':
      // the promotion's reserve is decided by the caller (reserve)
      return { promotion: () => null, usage: 'HOLD', order: 'ClaimCheckoutOrder' };
    case 'CheckoutConfirmed':
      return {
        promotion: (reservationKey, now) => ({ type: 'ConfirmPromotion', reservationKey, now }),
        usage: null,
        order: 'ConfirmCheckoutOrder',
      };
    case 'CheckoutReleased':
      return {
        promotion: (reservationKey, now) => ({ type: 'ReleasePromotion', reservationKey, reason: 'RELEASED', now }),
        usage: 'FREE',
        order: 'FreeCheckoutOrder',
      };
    case 'CheckoutExpired':
      return {
        promotion: (reservationKey, now) => ({ type: 'ReleasePromotion', reservationKey, reason: 'EXPIRED', now }),
        usage: 'FREE',
        order: 'FreeCheckoutOrder',
      };
    case 'CheckoutRefunded':
      return {
        promotion: (reservationKey, now) => ({ type: 'RefundPromotion', reservationKey, now }),
        usage: 'FREE',
        order: 'FreeCheckoutOrder',
      };
  }
}

/** A master's limits, as the reservation's uses are counted against them. */
export interface MasterLimits {
  totalQuota: number | null;
  perUserLimit: number | null;
}

export const limitsOf = (m: PromotionMasterState): MasterLimits =>
  m.status === 'NONE' ? { totalQuota: null, perUserLimit: null } : m;

/** A promotion a reserve holds: its state as the caller read it, and its own reserve command. */
export interface ReservingPromotion {
  at: Loaded<IssuedPromotionState>;
  command: (now: string) => IssuedPromotionCommand;
}

export interface ReservationWrite {
  reservationKey: string;
  /** The reservation command, given the time. */
  command: (now: string) => CheckoutReservationCommand;
  /** For a reserve: its promotions as the caller read them (read again after a conflict: beforeRetry). */
  reserving?: () => Map<number, ReservingPromotion>;
  /** The limits of each promotion's master (only those with limits hold uses). */
  limits: (promotion: ReservedPromotion) => Promise<MasterLimits>;
  /** Before deciding again after a conflict: reload what the caller decided on. */
  beforeRetry?: () => Promise<void>;
}

/** Decides and appends one reservation command with everything that follows from it; decided again on a conflict. */
export async function writeReservation(
  aggregates: CheckoutAggregates,
  context: CommandContext,
  write: ReservationWrite,
): Promise<{
  state: CheckoutReservationState;
  events: CheckoutReservationEvent[];
  replayed: boolean;
  /** The promotions' states after the write (empty when it was a replay or decided nothing). */
  promotions: Map<number, IssuedPromotionState>;
}> {
  let promotions = new Map<number, IssuedPromotionState>();
  const result = await aggregates.checkoutReservation.handleMany(
    context,
    write.reservationKey,
    (now) => write.command(now),
    {
      follow: async (decided, before, now) => {
        const planned = await followUps(aggregates, write, before, decided, now);
        promotions = planned.promotions;
        return planned.writes;
      },
      ...(write.beforeRetry && { beforeRetry: write.beforeRetry }),
    },
  );
  const moved = result.replayed || result.events.length === 0;
  return { ...result, promotions: moved ? new Map() : promotions };
}

/** Other streams' writes, and the promotions' states after them (so the answer needs no second read). */
interface Planned {
  writes: SideWrite[];
  promotions: Map<number, IssuedPromotionState>;
}

/** The other streams' writes, decided on their current state from the reservation's events. */
async function followUps(
  aggregates: CheckoutAggregates,
  write: ReservationWrite,
  before: CheckoutReservationState,
  decided: readonly CheckoutReservationEvent[],
  now: string,
): Promise<Planned> {
  const writes: SideWrite[] = [];
  const promotions = new Map<number, IssuedPromotionState>();
  const state = decided.reduce(checkoutReservationDecider.evolve, before);
  if (state.status === 'NONE') return { writes, promotions };

  const reserving = write.reserving?.();
  for (const event of decided) {
    const follow = followUpsOf(event);
    // The order first: a second reservation of a held order is refused for that, whatever its promotion.
    writes.push(...(await orderWrites(aggregates, state, follow.order, now)));
    for (const reserved of state.promotions) {
      const own = event.type === 'CheckoutReserved' ? reserving?.get(reserved.promotionId) : undefined;
      const command = own ? own.command(now) : follow.promotion(state.reservationKey, now);
      if (command) {
        const promotion = own
          ? aggregates.issuedPromotion.decideOn(reserved.promotionId, own.at, command)
          : await aggregates.issuedPromotion.decide(reserved.promotionId, () => command);
        promotions.set(reserved.promotionId, promotion.state);
        writes.push(...promotion.writes);
      }
      if (follow.usage)
        writes.push(...(await usageWrites(aggregates, write, state, reserved, follow.usage, now, own?.at.revision)));
    }
  }
  return { writes, promotions };
}

/** Claims, confirms or frees the reservation's order (one promotion per order), at the revision decided on. */
async function orderWrites(
  aggregates: CheckoutAggregates,
  reservation: Exclude<CheckoutReservationState, { status: 'NONE' }>,
  what: CheckoutOrderCommand['type'],
  now: string,
): Promise<SideWrite[]> {
  const { merchantId, orderId, reservationKey } = reservation;
  const orders = aggregates.checkoutOrder;
  const id = { merchantId, orderId };
  const at = await orders.load(id);
  let state = at.state;
  // A claim whose reservation was never written (a partial write on EventStoreDB, where the claim goes first) holds
  // nothing: the next reserve takes it over, as a stale guard claim is (application/shared/guard-claims.ts).
  if (what === 'ClaimCheckoutOrder' && state.holder !== null && state.holder !== reservationKey) {
    const holder = await aggregates.checkoutReservation.load(state.holder);
    if (holder.revision < 0) state = checkoutOrderDecider.initialState;
  }
  const command = { type: what, merchantId, orderId, reservationKey, now };
  return orders.decideOn(id, { state, revision: at.revision }, command, 'before').writes;
}

/** Holds or frees the reservation's use of the master's total quota and of the user's limit. */
async function usageWrites(
  aggregates: CheckoutAggregates,
  write: ReservationWrite,
  reservation: Exclude<CheckoutReservationState, { status: 'NONE' }>,
  reserved: ReservedPromotion,
  what: 'HOLD' | 'FREE',
  now: string,
  promotionRevision: number | undefined,
): Promise<SideWrite[]> {
  const limits = await write.limits(reserved);
  const counters: [string | null, number | null][] = [
    [null, limits.totalQuota],
    [reservation.userId, limits.perUserLimit],
  ];
  const writes: SideWrite[] = [];
  for (const [userId, limit] of counters) {
    if (limit === null) continue;
    const id = { promotionMasterId: reserved.promotionMasterId, ...(userId !== null && { userId }) };
    const at = await aggregates.promotionUsage.load(id);
    const base = {
      promotionMasterId: reserved.promotionMasterId,
      userId,
      reservationKey: reservation.reservationKey,
      now,
    };
    const command: PromotionUsageCommand =
      what === 'HOLD' ? { type: 'HoldPromotionUse', ...base, limit } : { type: 'FreePromotionUse', ...base };
    try {
      writes.push(...aggregates.promotionUsage.decideOn(id, at, command).writes);
    } catch (error) {
      // Uses were read after the promotion: when another checkout took both meanwhile, the answer is that the
      // promotion is held (8004), which deciding again on its fresh state says, not that the user used it up.
      if (promotionRevision !== undefined) {
        const moved = await aggregates.issuedPromotion.load(reserved.promotionId);
        if (moved.revision > promotionRevision) throw new DecideAgain();
      }
      throw error;
    }
  }
  return writes;
}
