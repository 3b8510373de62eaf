/**
 * Bought vouchers go to the buyer's wallet (spec part A: "COMMITTED: vouchers go to the user's wallet"): a process
 * manager that hears each committed shop reservation and hands its vouchers to the promotion checkout's wallet
 * through the shared port (application/shared/promotion-wallet.ts), so a voucher bought in the shop is usable at
 * checkout. Idempotent: the wallet issues each voucher under a command id derived from the commit event, so a
 * redelivery or a replay of the log issues nothing twice (docs/process-managers.md).
 */
import { shopDecoders, shopEventDecoder, streams, type ShopEvent } from '../../domain/shop/index.js';
import type { EventStore } from '../shared/event-store.js';
import type { PortDirectory } from '../shared/ports.js';
import type { BoughtVoucher } from '../shared/promotion-wallet.js';
import type { Reactor } from '../shared/reactor.js';
import type { VoucherCodeCipher } from './voucher-codes.js';

export function vouchersToWalletReactor(deps: {
  store: EventStore;
  codes: VoucherCodeCipher;
  ports: PortDirectory;
}): Reactor<ShopEvent> {
  const titles = new Map<number, string>();

  /** A pool's title as it was created (the master of its vouchers is named once, at their first sale). */
  async function titleOf(poolId: number): Promise<string> {
    const known = titles.get(poolId);
    if (known !== undefined) return known;
    const first = (await deps.store.readStream(streams.voucherPool(poolId))).at(0);
    const created = first && shopDecoders.voucherPool.decode(first);
    const title = created?.type === 'VoucherPoolCreated' ? created.data.display.title : `Voucher pool ${poolId}`;
    titles.set(poolId, title);
    return title;
  }

  return {
    name: 'shop-vouchers-to-wallet',
    eventTypes: new Set<ShopEvent['type']>(['ShopReservationCommitted']),
    decoder: shopEventDecoder,
    async react(event) {
      if (event.type !== 'ShopReservationCommitted') return;
      const { reservationKey } = event.data;
      const first = (await deps.store.readStream(streams.reservation(reservationKey))).at(0);
      const placed = first && shopDecoders.reservation.decode(first);
      if (placed?.type !== 'ShopReservationPlaced')
        throw new Error(`committed reservation ${reservationKey} has no ShopReservationPlaced`);
      const vouchers: BoughtVoucher[] = [];
      for (const item of placed.data.items)
        for (const v of item.vouchers)
          vouchers.push({
            issuedPromotionId: v.issuedPromotionId,
            code: deps.codes.decrypt(v.encryptedCode, { reservationKey, issuedPromotionId: v.issuedPromotionId }),
            voucherPoolId: item.voucherPoolId,
            title: await titleOf(item.voucherPoolId),
            faceValue: v.faceValue,
            purchasedAt: v.purchasedAt,
            expiresAt: v.expiresAt,
          });
      const correlationId = typeof event.metadata.correlationId === 'string' ? event.metadata.correlationId : event.id;
      await deps.ports
        .get('promotionWallet')
        .issueBoughtVouchers(
          { reservationKey, merchantId: placed.data.merchantId, userId: placed.data.userId, vouchers },
          { eventId: event.id, correlationId },
        );
    },
  };
}
