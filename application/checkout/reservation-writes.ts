/**
 * The one write path of checkout reservations (docs/checkout.md, "Reservations"): a reservation's decision and what
 * follows from it in other aggregates (its promotions' transitions, the uses it holds against a master's limits) are
 * appended in one transaction, each stream at the revision its decision was made on. Two checkouts racing for one
 * promotion or for the last use of a quota thus have one winner; the loser decides again on fresh state and gets the
 * domain's refusal (PROMOTION_ALREADY_RESERVED, QUOTA_EXHAUSTED, ...). The order's claim (one promotion per order:
 * domain/checkout/checkout-order.ts) is one of those streams: two reserves of one order have one winner too.
 */
import {
  checkoutDecoders,
  checkoutEventDecoder,
  checkoutOrderDecider,
  checkoutReservationDecider,
  issuedPromotionDecider,
  promotionUsageDecider,
  streams,
  type CheckoutOrderCommand,
  type CheckoutReservationCommand,
  type CheckoutReservationEvent,
  type CheckoutReservationState,
  type IssuedPromotionCommand,
  type IssuedPromotionEvent,
  type IssuedPromotionState,
  type PromotionMasterState,
  type PromotionUsageCommand,
  type ReservedPromotion,
} from '../../domain/checkout/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { expectedVersionOf, handleCommand, loadAggregate, type Loaded } from '../shared/command-handler.js';
import { WrongExpectedVersionError, type EventStore } from '../shared/event-store.js';
import type { SideWrite } from '../shared/guard-claims.js';
import { secretDigest } from '../shared/signatures.js';

export interface ReservationWriteDeps {
  store: EventStore;
  clock: Clock;
}

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

export interface ReservationWrite {
  reservationKey: string;
  /** The reservation command, given the time. */
  command: (now: string) => CheckoutReservationCommand;
  /** For a reserve: the promotions' own reserve commands' events, decided by the caller on `promotions`. */
  reserving?: {
    promotions: Map<number, Loaded<IssuedPromotionState>>;
    decide: (now: string) => Map<number, IssuedPromotionEvent[]>;
  };
  /** The limits of each promotion's master (only those with limits hold uses). */
  limits: (promotion: ReservedPromotion) => Promise<MasterLimits>;
  /** Before deciding again after a conflict: reload what the caller decided on. */
  beforeRetry?: () => Promise<void>;
  /** A new reservation (its key was just made): no stream to read before deciding. */
  fresh?: boolean;
}

/** Other streams' writes, and the promotions' states after them (so the answer needs no second read). */
interface Planned {
  writes: SideWrite[];
  promotions: Map<number, IssuedPromotionState>;
}

/** A retry signal: the reservation moved between this decision and its append. */
class Moved extends Error {}

/** Decides and appends one reservation command with everything that follows from it; retried on a conflict. */
export async function writeReservation(
  deps: ReservationWriteDeps,
  context: CommandContext,
  write: ReservationWrite,
  maxAttempts = 5,
): Promise<{
  state: CheckoutReservationState;
  events: CheckoutReservationEvent[];
  replayed: boolean;
  /** The promotions' states after the write (empty when it was a replay or decided nothing). */
  promotions: Map<number, IssuedPromotionState>;
}> {
  const streamName = streams.checkoutReservation(write.reservationKey);
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock.now().toISOString();
    // Read once: the command handler decides on these same events rather than reading the stream again.
    const loaded =
      write.fresh && attempt === 1
        ? { state: checkoutReservationDecider.initialState, revision: -1, recorded: [] }
        : await loadAggregate(deps.store, checkoutReservationDecider, checkoutDecoders.checkoutReservation, streamName);
    // Deciding here first (the command handler decides again on what it reads) tells which other streams to load.
    // A reserve under an idempotency key the caller found used goes to the command handler directly (its replay).
    const planned = checkoutReservationDecider.decide(write.command(now), loaded.state);
    try {
      const side = await sideWritesOf(deps, write, loaded.state, planned, now);
      const result = await handleCommand(
        { ...deps, decoder: checkoutEventDecoder },
        context,
        {
          decider: checkoutReservationDecider,
          decoder: checkoutDecoders.checkoutReservation,
          streamName,
          recorded: loaded.recorded,
          command: () => write.command(now),
          sideWrites: (events) => {
            if (events.map((e) => e.type).join() !== planned.map((e) => e.type).join()) throw new Moved();
            return side.writes;
          },
        },
        { maxAttempts: 1 },
      );
      const moved = result.replayed || result.events.length === 0;
      return { ...result, promotions: moved ? new Map() : side.promotions };
    } catch (error) {
      const retry = error instanceof Moved || error instanceof WrongExpectedVersionError;
      if (!retry || attempt >= maxAttempts) throw error;
      await write.beforeRetry?.();
    }
  }
}

/** The other streams' writes, decided on their current state from the reservation's (planned) events. */
async function sideWritesOf(
  deps: ReservationWriteDeps,
  write: ReservationWrite,
  before: CheckoutReservationState,
  decided: readonly CheckoutReservationEvent[],
  now: string,
): Promise<Planned> {
  const { store } = deps;
  const writes: SideWrite[] = [];
  const promotions = new Map<number, IssuedPromotionState>();
  if (decided.length === 0) return { writes, promotions };
  const state = decided.reduce(checkoutReservationDecider.evolve, before);
  if (state.status === 'NONE') return { writes, promotions };

  /** The promotion's revision the caller decided on (a reserve), to tell a refusal on newer uses from a stale look. */
  const at0 = (p: ReservedPromotion) => write.reserving?.promotions.get(p.promotionId)?.revision;
  for (const event of decided) {
    const follow = followUpsOf(event);
    // The order first: a second reservation of a held order is refused for that, whatever its promotion.
    writes.push(...(await orderWrites(store, state, follow.order, now)));
    for (const reserved of state.promotions) {
      const promotionStream = streams.issuedPromotion(reserved.promotionId);
      if (event.type === 'CheckoutReserved' && write.reserving) {
        const own = write.reserving.decide(now).get(reserved.promotionId) ?? [];
        const at = write.reserving.promotions.get(reserved.promotionId)!;
        promotions.set(reserved.promotionId, own.reduce(issuedPromotionDecider.evolve, at.state));
        if (own.length > 0)
          writes.push({
            streamName: promotionStream,
            event: own,
            expectedVersion: expectedVersionOf(at.revision),
            placement: 'after',
          });
      } else {
        const command = follow.promotion(state.reservationKey, now);
        if (command) {
          const at = await loadAggregate(
            store,
            issuedPromotionDecider,
            checkoutDecoders.issuedPromotion,
            promotionStream,
          );
          const events = issuedPromotionDecider.decide(command, at.state);
          promotions.set(reserved.promotionId, events.reduce(issuedPromotionDecider.evolve, at.state));
          if (events.length > 0)
            writes.push({
              streamName: promotionStream,
              event: events,
              expectedVersion: expectedVersionOf(at.revision),
              placement: 'after',
            });
        }
      }
      if (follow.usage)
        writes.push(...(await usageWrites(store, write, state, reserved, follow.usage, now, at0(reserved))));
    }
  }
  return { writes, promotions };
}

/** The order's stream: one per merchant and order id, named by their digest (an order id is free text). */
export const checkoutOrderStream = (merchantId: string, orderId: string): string =>
  streams.checkoutOrder(secretDigest(JSON.stringify([merchantId, orderId])));

/** Claims, confirms or frees the reservation's order (one promotion per order), at the revision decided on. */
async function orderWrites(
  store: EventStore,
  reservation: Exclude<CheckoutReservationState, { status: 'NONE' }>,
  what: CheckoutOrderCommand['type'],
  now: string,
): Promise<SideWrite[]> {
  const { merchantId, orderId, reservationKey } = reservation;
  const streamName = checkoutOrderStream(merchantId, orderId);
  const at = await loadAggregate(store, checkoutOrderDecider, checkoutDecoders.checkoutOrder, streamName);
  let state = at.state;
  // A claim whose reservation was never written (a partial write on EventStoreDB, where the claim goes first) holds
  // nothing: the next reserve takes it over, as a stale guard claim is (application/shared/guard-claims.ts).
  if (what === 'ClaimCheckoutOrder' && state.holder !== null && state.holder !== reservationKey) {
    const holder = await store.readStream(streams.checkoutReservation(state.holder));
    if (holder.length === 0) state = checkoutOrderDecider.initialState;
  }
  const events = checkoutOrderDecider.decide({ type: what, merchantId, orderId, reservationKey, now }, state);
  if (events.length === 0) return [];
  return [{ streamName, event: events, expectedVersion: expectedVersionOf(at.revision), placement: 'before' }];
}

/** Holds or frees the reservation's use of the master's total quota and of the user's limit. */
async function usageWrites(
  store: EventStore,
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
    const streamName = streams.promotionUsage(reserved.promotionMasterId, userId ?? undefined);
    const at = await loadAggregate(store, promotionUsageDecider, checkoutDecoders.promotionUsage, streamName);
    const base = {
      promotionMasterId: reserved.promotionMasterId,
      userId,
      reservationKey: reservation.reservationKey,
      now,
    };
    const command: PromotionUsageCommand =
      what === 'HOLD' ? { type: 'HoldPromotionUse', ...base, limit } : { type: 'FreePromotionUse', ...base };
    let events;
    try {
      events = promotionUsageDecider.decide(command, at.state);
    } catch (error) {
      // Uses were read after the promotion: when another checkout took both meanwhile, the answer is that the
      // promotion is held (8004), which deciding again on its fresh state says, not that the user used it up.
      if (promotionRevision !== undefined) {
        const now = await store.readStream(streams.issuedPromotion(reserved.promotionId), {
          fromRevision: promotionRevision + 1,
        });
        if (now.length > 0) throw new Moved();
      }
      throw error;
    }
    if (events.length > 0)
      writes.push({ streamName, event: events, expectedVersion: expectedVersionOf(at.revision), placement: 'after' });
  }
  return writes;
}
