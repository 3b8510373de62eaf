/**
 * Users' wallets of issued promotions (docs/checkout.md, "Issuing"): promotions an operator issues from a master
 * (allotted on the master's stream first, then issued one by one, so a crash leaves nothing half done that the
 * allotment reactor does not finish), vouchers bought in the shop (the PromotionWalletPort the shop's process manager
 * calls), an operator's cancel and the expiry timer. Codes and pins are stored encrypted, bound to their promotion.
 */
import {
  checkoutDecoders,
  checkoutError,
  streams,
  type Allotment,
  type IssuedPromotionCommand,
  type PromotionMasterDefinition,
  type PromotionSource,
  type PromotionsAllotted,
} from '../../domain/checkout/index.js';
import type { Clock } from '../shared/clock.js';
import { followUpContext, type CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { newPin, newPromotionCode } from '../shared/promotion-codes.js';
import type { BoughtVoucher, BoughtVouchers, IssueCause, PromotionWalletPort } from '../shared/promotion-wallet.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { secretDigest } from '../shared/signatures.js';
import { checkoutAggregates, type CheckoutAggregates } from './aggregates.js';
import { codeBinding } from './checkout-service.js';
import { existingMaster, loadIssuedPromotion } from './stream-reads.js';

export interface Recipient {
  userId: string;
  /** An imported code; absent: one is generated. */
  code?: string;
}

export interface IssuedView {
  promotionId: number;
  userId: string;
  code: string;
}

/** Shop vouchers are discounts of their face value, on any merchant's order, until each voucher's own expiry. */
const shopMasterValidUntil = '2100-01-01T00:00:00.000Z';

export class PromotionWallet implements PromotionWalletPort {
  private readonly aggregates: CheckoutAggregates;

  constructor(
    private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock; codes: SecretCipher },
  ) {
    this.aggregates = checkoutAggregates(deps);
  }

  /** An operator issues promotions of a master to users (codes generated, or imported and unique per master). */
  async issue(context: CommandContext, promotionMasterId: number, recipients: readonly Recipient[]) {
    const { codes, ids } = this.deps;
    const promotionIds = await ids.next('issuedPromotion', recipients.length);
    const master = await this.master(promotionMasterId);
    const allotments: Allotment[] = recipients.map((r, i) => {
      const promotionId = promotionIds[i]!;
      return {
        promotionId,
        userId: r.userId,
        encryptedCode: codes.encrypt(r.code ?? newPromotionCode(promotionId), codeBinding(promotionId)),
        encryptedPin: master.pinRequired ? codes.encrypt(newPin(), codeBinding(promotionId, 'pin')) : null,
      };
    });
    const imported = recipients.flatMap((r, i) => (r.code === undefined ? [] : [{ code: r.code, index: i }]));
    // Named by the command: a resend (under the request's key, or with its X-Request-Id) reaches the same allotment,
    // which answers it from the first time (its ids and codes) and issues nothing twice.
    const allotmentId = nameBasedUuid(`${context.commandId}/promotionAllotment`);
    const command = (now: string) => ({ type: 'AllotPromotions' as const, allotmentId, master, allotments, now });
    const { events } = await this.aggregates.promotionAllotment.handle(context, allotmentId, command, {
      claims: (decided) =>
        decided.length === 0
          ? []
          : imported.map(({ code, index }) => ({
              streamName: streams.promotionCode(promotionMasterId, secretDigest(code)),
              event: {
                type: 'PromotionCodeClaimed',
                data: {
                  promotionMasterId,
                  promotionId: allotments[index]!.promotionId,
                  claimedAt: allottedAt(decided),
                },
              },
              lost: () =>
                checkoutError('INVALID_PROMOTION_MASTER', `code ${index + 1} is issued already under this master`, {
                  field: `recipients[${index}].code`,
                }),
            })),
    });
    const allotted = events.find((e): e is PromotionsAllotted => e.type === 'PromotionsAllotted');
    if (!allotted) throw new Error('an allotment answered without its event');
    await this.issueAllotted(context, allotted.data);
    return allotted.data.allotments.map((a): IssuedView => ({
      promotionId: a.promotionId,
      userId: a.userId,
      code: this.code(a),
    }));
  }

  /** Issues each promotion of an allotment (a repeat issues nothing again): the request's, or its reactor's. */
  async issueAllotted(context: CommandContext, allotted: PromotionsAllotted['data']): Promise<void> {
    const master = await this.master(allotted.promotionMasterId);
    for (const a of allotted.allotments) {
      await this.issueOne(followUpContext(context, `issue/${a.promotionId}`), {
        promotionId: a.promotionId,
        promotionMasterId: allotted.promotionMasterId,
        userId: a.userId,
        encryptedCode: a.encryptedCode,
        encryptedPin: a.encryptedPin,
        validFrom: master.validFrom,
        validUntil: master.validUntil,
        source: { kind: 'OPERATOR' },
      });
    }
  }

  /** The port: each voucher of a committed shop reservation becomes an ISSUED promotion of its buyer. */
  async issueBoughtVouchers(purchase: BoughtVouchers, cause: IssueCause): Promise<void> {
    for (const v of purchase.vouchers) {
      const context: CommandContext = {
        commandId: nameBasedUuid(`${cause.eventId}/checkout-shop-vouchers/${v.issuedPromotionId}`),
        correlationId: cause.correlationId,
        causationId: cause.eventId,
        actor: { process: 'checkout-shop-vouchers' },
      };
      const promotionMasterId = await this.masterOfPool(followUpContext(context, 'master'), v);
      const source: PromotionSource = {
        kind: 'SHOP',
        reservationKey: purchase.reservationKey,
        voucherPoolId: v.voucherPoolId,
      };
      await this.issueOne(context, {
        promotionId: v.issuedPromotionId,
        promotionMasterId,
        userId: purchase.userId,
        encryptedCode: this.deps.codes.encrypt(v.code, codeBinding(v.issuedPromotionId)),
        encryptedPin: null,
        validFrom: v.purchasedAt,
        validUntil: v.expiresAt,
        source,
      });
    }
  }

  /** An operator cancels an unused promotion. */
  async cancel(context: CommandContext, promotionId: number) {
    const { state } = await this.aggregates.issuedPromotion.handle(context, promotionId, (now) => ({
      type: 'CancelPromotion',
      now,
    }));
    return state;
  }

  /** Its timer: an unused promotion past its validity expires (anything else is left alone). */
  async expire(context: CommandContext, promotionId: number): Promise<void> {
    await this.aggregates.issuedPromotion.handle(context, promotionId, (now) => ({ type: 'ExpirePromotion', now }));
  }

  /** The promotion as its stream says. */
  async get(promotionId: number) {
    const { state } = await loadIssuedPromotion(this.deps.store, promotionId);
    if (state.status === 'NONE')
      throw checkoutError('PROMOTION_NOT_FOUND', `no promotion ${promotionId}`, { promotionId });
    return { ...state, code: this.code(state) };
  }

  private code(p: { promotionId: number; encryptedCode: string }): string {
    return this.deps.codes.decrypt(p.encryptedCode, codeBinding(p.promotionId));
  }

  private async issueOne(
    context: CommandContext,
    data: Omit<Extract<IssuedPromotionCommand, { type: 'IssuePromotion' }>, 'type' | 'now'>,
  ): Promise<void> {
    await this.aggregates.issuedPromotion.handle(context, data.promotionId, (now) => ({
      type: 'IssuePromotion' as const,
      ...data,
      now,
    }));
  }

  private master(promotionMasterId: number) {
    return existingMaster(this.deps.store, promotionMasterId);
  }

  /**
   * The master a pool's vouchers are issued under, made with the pool's first voucher in a wallet: a FIXED discount
   * of the face value, PLATFORM scope, no minimum and no limits (each voucher is one use). Its id is claimed on the
   * pool's guard stream, so concurrent first sales agree on one master.
   */
  private async masterOfPool(context: CommandContext, v: BoughtVoucher): Promise<number> {
    const guard = streams.shopPoolMaster(v.voucherPoolId);
    const claimed = async () => {
      const recorded = (await this.deps.store.readStream(guard)).at(0);
      return recorded && checkoutDecoders.shopPoolMaster.decode(recorded).data.promotionMasterId;
    };
    const existing = await claimed();
    if (existing !== undefined) return existing;
    const [promotionMasterId] = await this.deps.ids.next('promotionMaster');
    const definition: PromotionMasterDefinition = {
      title: v.title,
      shortTitle: v.title.slice(0, 50),
      promotionType: 'VOUCHER',
      codeType: 'UNIQUE',
      discount: { type: 'FIXED', amount: v.faceValue },
      minOrderValue: 0,
      scope: { type: 'PLATFORM' },
      categories: null,
      validFrom: v.purchasedAt,
      validUntil: shopMasterValidUntil,
      perUserLimit: null,
      totalQuota: null,
      pinRequired: false,
      logoUrl: null,
      bannerUrl: null,
    };
    try {
      const command = (now: string) => ({
        type: 'CreatePromotionMaster' as const,
        promotionMasterId: promotionMasterId!,
        definition,
        now,
      });
      await this.aggregates.promotionMaster.handle(context, promotionMasterId!, command, {
        claims: (events) =>
          events.length === 0
            ? []
            : [
                {
                  streamName: guard,
                  event: {
                    type: 'ShopPoolMasterClaimed',
                    data: {
                      voucherPoolId: v.voucherPoolId,
                      promotionMasterId: promotionMasterId!,
                      claimedAt: v.purchasedAt,
                    },
                  },
                  lost: () => new PoolMasterTaken(),
                },
              ],
      });
      return promotionMasterId!;
    } catch (error) {
      // Another first sale of the pool made its master meanwhile: use that one.
      if (!(error instanceof PoolMasterTaken)) throw error;
      const winner = await claimed();
      if (winner === undefined) throw error;
      return winner;
    }
  }
}

class PoolMasterTaken extends Error {}

const allottedAt = (events: readonly { type: string; data: unknown }[]): string =>
  (events.find((e) => e.type === 'PromotionsAllotted')?.data as PromotionsAllotted['data']).allottedAt;
