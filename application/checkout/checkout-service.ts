/**
 * The checkout interface's commands and strongly consistent reads (spec part B; docs/checkout.md): preview-discount,
 * reserve, confirm, release, refund and get-reservation, decided on the aggregates (issued promotions, their masters,
 * the reservation), never on the read model. `applicable` reads the wallet read model (applicable.ts).
 */
import {
  checkoutError,
  checkoutReservationDecider,
  eligibility,
  ineligibilityError,
  minimumShortfall,
  originalTotal,
  ownReservation,
  usableAtMerchant,
  type CheckoutOrder,
  type CheckoutReservation,
  type CodeType,
  type DiscountResult,
  type IssuedPromotion,
  type IssuedPromotionState,
  type PromotionMasterState,
} from '../../domain/checkout/index.js';
import type { Clock } from '../shared/clock.js';
import { followUpContext, type CommandContext } from '../shared/command-context.js';
import { nameBasedUuid, type Loaded } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import { isDomainError } from '../shared/errors.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { signatureMatches } from '../shared/signatures.js';
import { checkoutAggregates, type CheckoutAggregates } from './aggregates.js';
import { limitsOf, writeReservation } from './reservation-writes.js';
import { loadIssuedPromotion, loadPromotionMaster } from './stream-reads.js';

/** The wallet owner and the merchant calling (X-App-User-Id, X-Merchant-Id) and the request's command context. */
export interface CheckoutCaller {
  merchantId: string;
  userId: string;
  context: CommandContext;
}

export interface SelectedPromotion {
  promotionId: number;
  codeType: CodeType;
  pinCode?: string;
}

export interface PromotionStatusView {
  promotionMasterId: number;
  promotionId: number;
  code: string;
  status: string;
  codeType: CodeType;
}

export interface ReservationView {
  reservationKey: string;
  orderId: string;
  status: CheckoutReservation['status'];
  discount: DiscountResult;
  reservedAt: string;
  expiresAt: string | null;
  promotions: PromotionStatusView[];
}

export interface CheckoutSettings {
  /** null: reservations wait for confirm or release for ever (the spec's rule); else their time-to-live. */
  reservationTtlSeconds: number | null;
}

/** Binds a promotion's code (or pin) text to it, so it opens for no other record (SecretCipher). */
export const codeBinding = (promotionId: number, what: 'code' | 'pin' = 'code') =>
  `issuedPromotion-${promotionId}/${what}`;

type Master = Exclude<PromotionMasterState, { status: 'NONE' }>;

export class CheckoutService {
  private readonly aggregates: CheckoutAggregates;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      codes: SecretCipher;
      settings: CheckoutSettings;
    },
  ) {
    this.aggregates = checkoutAggregates(deps);
  }

  /** The discount the selected promotion gives these orders, or the refusal reserve would answer. */
  async preview(caller: CheckoutCaller, selected: readonly SelectedPromotion[], orders: readonly CheckoutOrder[]) {
    const now = this.deps.clock.now().toISOString();
    // The seed's preview entries carry no pin (pin_code is added for reserve): a pin is checked only when sent.
    const picked = await this.pick(caller, selected, 'preview');
    await this.assertUsesLeft(caller, picked.master, picked.promotion.promotionId);
    // The answer names the promotion's code: decrypted from the state just read, not read again.
    return { discount: this.discount(picked, orders, now), code: this.code(picked.promotion) };
  }

  /**
   * Holds the selected promotion for the order: all of the request or nothing (one promotion per checkout). The
   * reservation's key is named by the command (its X-Idempotency-Key): a resend reaches the same reservation, which
   * answers it from its first time (or refuses another body under the key, IDEMPOTENCY_KEY_REUSED).
   */
  async reserve(
    caller: CheckoutCaller,
    request: { orderId: string; selected: readonly SelectedPromotion[]; orders: readonly CheckoutOrder[] },
  ): Promise<ReservationView> {
    const { settings } = this.deps;
    const reservationKey = nameBasedUuid(`${caller.context.commandId}/checkoutReservation`);
    // Under a key, a refusal of what the request selects is made inside the decision, where the engine looks the key
    // up: another request under a used key is refused as such (IDEMPOTENCY_KEY_REUSED), whatever it selects.
    let picked!: Awaited<ReturnType<CheckoutService['pick']>>;
    let refused: unknown;
    try {
      picked = await this.pick(caller, request.selected);
    } catch (error) {
      if (!isDomainError(error) || !caller.context.idempotency) throw error;
      refused = error;
    }
    const { state, promotions } = await writeReservation(this.aggregates, caller.context, {
      reservationKey,
      command: (now) => {
        if (refused) throw refused;
        const discount = this.discount(picked, request.orders, now);
        return {
          type: 'ReserveCheckout',
          reservationKey,
          orderId: request.orderId,
          merchantId: caller.merchantId,
          userId: caller.userId,
          promotions: [
            {
              promotionId: picked.promotion.promotionId,
              promotionMasterId: picked.master.promotionMasterId,
              codeType: picked.master.codeType,
            },
          ],
          discount,
          expiresAt:
            settings.reservationTtlSeconds === null
              ? null
              : new Date(Date.parse(now) + settings.reservationTtlSeconds * 1000).toISOString(),
          now,
        };
      },
      reserving: () =>
        new Map([
          [
            picked.promotion.promotionId,
            {
              at: picked.loaded,
              command: (now: string) => ({
                type: 'ReservePromotion' as const,
                userId: caller.userId,
                reservationKey,
                orderId: request.orderId,
                now,
              }),
            },
          ],
        ]),
      limits: async () => limitsOf(picked.master),
      // A conflict means another checkout moved the promotion: look again, and refuse with its reason.
      beforeRetry: async () => {
        picked = await this.pick(caller, request.selected);
      },
    });
    return this.view(state as CheckoutReservation, promotions);
  }

  confirm(caller: CheckoutCaller, reservationKey: string, orderId: string) {
    return this.step(caller, reservationKey, (now) => ({
      type: 'ConfirmCheckout',
      orderId,
      userId: caller.userId,
      merchantId: caller.merchantId,
      now,
    }));
  }

  release(caller: CheckoutCaller, reservationKey: string, orderId: string, reason: string | null) {
    return this.step(caller, reservationKey, (now) => ({
      type: 'ReleaseCheckout',
      orderId,
      userId: caller.userId,
      merchantId: caller.merchantId,
      reason,
      now,
    }));
  }

  refund(caller: CheckoutCaller, reservationKey: string, orderId: string, reason: string | null) {
    return this.step(caller, reservationKey, (now) => ({
      type: 'RefundCheckout',
      orderId,
      userId: caller.userId,
      merchantId: caller.merchantId,
      reason,
      now,
    }));
  }

  /** The reservation as its stream says, when it is this order's, this user's and this merchant's. */
  async get(caller: CheckoutCaller, reservationKey: string, orderId: string): Promise<ReservationView> {
    const { state } = await this.loadReservation(reservationKey);
    const own = ownReservation(
      state,
      { orderId, userId: caller.userId, merchantId: caller.merchantId },
      reservationKey,
    );
    return this.view(own);
  }

  /** Ends a reservation past its time-to-live (its timer, or a confirm that came too late); nothing otherwise. */
  async expire(context: CommandContext, reservationKey: string): Promise<void> {
    await writeReservation(this.aggregates, context, {
      reservationKey,
      command: (now) => ({ type: 'ExpireCheckout', now }),
      limits: async (p) => limitsOf(await this.master(p.promotionMasterId)),
    });
  }

  // ---- helpers ----

  private async step(
    caller: CheckoutCaller,
    reservationKey: string,
    command: (now: string) => Parameters<typeof checkoutReservationDecider.decide>[0],
  ): Promise<ReservationView> {
    const write = {
      reservationKey,
      command,
      limits: async (p: { promotionMasterId: number }) => limitsOf(await this.master(p.promotionMasterId)),
    };
    try {
      const { state, promotions } = await writeReservation(this.aggregates, caller.context, write);
      return this.view(state as CheckoutReservation, promotions);
    } catch (error) {
      // A confirm past the time-to-live: the promotions go back to the wallet before the refusal is answered.
      if (isDomainError(error) && error.code === 'RESERVATION_EXPIRED')
        await this.expire(followUpContext(caller.context, 'expire'), reservationKey);
      throw error;
    }
  }

  private loadReservation(reservationKey: string) {
    return this.aggregates.checkoutReservation.load(reservationKey);
  }

  private async master(promotionMasterId: number): Promise<PromotionMasterState> {
    return (await loadPromotionMaster(this.deps.store, promotionMasterId)).state;
  }

  /**
   * The one selected promotion, usable at the calling merchant and the caller's, with its master; the pin checked when
   * one is given or (for reserve, not preview: the seed's preview entries carry no pin) required. The guard of preview and reserve (docs/checkout.md, "Who reaches what"): a promotion
   * of another merchant is not found, before its owner or its pin is looked at, so neither tells anything of it.
   */
  private async pick(
    caller: CheckoutCaller,
    selected: readonly SelectedPromotion[],
    purpose: 'preview' | 'reserve' = 'reserve',
  ) {
    if (selected.length !== 1) throw new RangeError('one promotion per checkout (checked by the interface)');
    const choice = selected[0]!;
    const loaded: Loaded<IssuedPromotionState> = await loadIssuedPromotion(this.deps.store, choice.promotionId);
    const promotion = loaded.state;
    const notFound = () =>
      checkoutError('PROMOTION_NOT_FOUND', `no promotion ${choice.promotionId}`, { promotionId: choice.promotionId });
    if (promotion.status === 'NONE') throw notFound();
    const master = await this.master(promotion.promotionMasterId);
    if (master.status === 'NONE') throw new Error(`promotion ${promotion.promotionId} has no master`);
    if (!usableAtMerchant(master.scope, caller.merchantId)) throw notFound();
    if (promotion.userId !== caller.userId)
      throw checkoutError('PROMOTION_NOT_OWNED', `promotion ${choice.promotionId} is not in this user's wallet`, {
        promotionId: choice.promotionId,
      });
    if (choice.codeType !== master.codeType)
      throw checkoutError('PROMOTION_CODE_INVALID', `promotion ${promotion.promotionId} is ${master.codeType}`, {
        promotionId: promotion.promotionId,
        field: 'selected_promotions[0].code_type',
      });
    if (choice.pinCode !== undefined || (master.pinRequired && purpose === 'reserve'))
      this.checkPin(promotion, choice.pinCode);
    return { promotion, loaded, master };
  }

  private checkPin(promotion: IssuedPromotion, pin: string | undefined): void {
    const details = { promotionId: promotion.promotionId, field: 'selected_promotions[0].pin_code' };
    if (promotion.encryptedPin === null) return; // no pin to check: a pin sent anyway is ignored
    if (pin === undefined) throw checkoutError('PROMOTION_CODE_INVALID', 'this promotion needs its pin_code', details);
    const expected = this.deps.codes.decrypt(promotion.encryptedPin, codeBinding(promotion.promotionId, 'pin'));
    if (!signatureMatches(pin, expected)) throw checkoutError('PROMOTION_CODE_INVALID', 'pin_code is wrong', details);
  }

  /** Refuses, as reserve would, a promotion whose master's limits are taken (preview reads their streams). */
  private async assertUsesLeft(caller: CheckoutCaller, master: Master, promotionId: number): Promise<void> {
    const counters: [string | undefined, number | null, 'QUOTA_EXHAUSTED' | 'USAGE_LIMIT_REACHED'][] = [
      [undefined, master.totalQuota, 'QUOTA_EXHAUSTED'],
      [caller.userId, master.perUserLimit, 'USAGE_LIMIT_REACHED'],
    ];
    for (const [userId, limit, reason] of counters) {
      if (limit === null) continue;
      const state = await this.aggregates.promotionUsage.state({
        promotionMasterId: master.promotionMasterId,
        ...(userId !== undefined && { userId }),
      });
      if (state.holders.size >= limit) throw ineligibilityError(reason, promotionId);
    }
  }

  private discount(
    picked: { promotion: IssuedPromotion; master: Master },
    orders: readonly CheckoutOrder[],
    now: string,
  ): DiscountResult {
    const { promotion, master } = picked;
    const verdict = eligibility(promotion, master, orders, now);
    if (!verdict.eligible)
      throw ineligibilityError(verdict.reason, promotion.promotionId, minimumShortfall(master, orders));
    const total = originalTotal(orders);
    return {
      totalDiscount: verdict.amount,
      originalTotal: total,
      finalAmount: total - verdict.amount,
      breakdown: [
        {
          promotionMasterId: master.promotionMasterId,
          promotionId: promotion.promotionId,
          promotionType: master.promotionType,
          codeType: master.codeType,
          title: master.title,
          shortTitle: master.shortTitle,
          amount: verdict.amount,
          scope: master.scope,
        },
      ],
    };
  }

  /** The code of a promotion, decrypted for its owner's answer. */
  code(promotion: IssuedPromotion): string {
    return this.deps.codes.decrypt(promotion.encryptedCode, codeBinding(promotion.promotionId));
  }

  /** The answer: the reservation and its promotions (their states as just written, else read from their streams). */
  private async view(
    r: CheckoutReservation,
    known = new Map<number, IssuedPromotionState>(),
  ): Promise<ReservationView> {
    const promotions = await Promise.all(
      r.promotions.map(async (p) => {
        const state = known.get(p.promotionId) ?? (await loadIssuedPromotion(this.deps.store, p.promotionId)).state;
        if (state.status === 'NONE') throw new Error(`reservation ${r.reservationKey} holds a missing promotion`);
        return {
          promotionMasterId: p.promotionMasterId,
          promotionId: p.promotionId,
          code: this.code(state),
          status: state.status,
          codeType: p.codeType,
        };
      }),
    );
    return {
      reservationKey: r.reservationKey,
      orderId: r.orderId,
      status: r.status,
      discount: r.discount,
      reservedAt: r.reservedAt,
      expiresAt: r.expiresAt,
      promotions,
    };
  }
}
