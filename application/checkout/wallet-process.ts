/**
 * The checkout's process managers and timers (docs/process-managers.md): the allotment reactor finishes issuing what
 * an operator's request allotted (a crash between the allotment and the last issue leaves nothing undone), and the
 * timers expire promotions at the end of their validity and reservations past their time-to-live.
 */
import { checkoutEventDecoder, type CheckoutEvent } from '../../domain/checkout/index.js';
import { reactionContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import type { Reactor } from '../shared/reactor.js';
import type { DueTimer, TimerHandler } from '../shared/timers.js';
import type { CheckoutService } from './checkout-service.js';
import type { PromotionWallet } from './promotion-wallet.js';

export function allotmentReactor(wallet: PromotionWallet): Reactor<CheckoutEvent> {
  return {
    name: 'checkout-allotments',
    eventTypes: new Set(['PromotionsAllotted']),
    decoder: checkoutEventDecoder,
    async react(event) {
      if (event.type !== 'PromotionsAllotted') return;
      // The request issued them under its own command ids; here they are issued again under the reaction's, which
      // the decider answers with nothing for each one issued already.
      await wallet.issueAllotted(reactionContext(event, 'checkout-allotments'), event.data);
    },
  };
}

/** A timer's command context: its id derives from the timer, so a repeated firing appends nothing twice. */
const timerContext = (timer: DueTimer, process: string) => {
  const commandId = nameBasedUuid(`${timer.id}/${process}`);
  return { commandId, correlationId: commandId, actor: { process } };
};

export function checkoutTimerHandlers(deps: {
  wallet: PromotionWallet;
  checkout: CheckoutService;
  kinds: { promotionExpiry: string; reservationExpiry: string };
}): TimerHandler[] {
  return [
    {
      kind: deps.kinds.promotionExpiry,
      fire: (timer) =>
        deps.wallet.expire(timerContext(timer, 'checkout-promotion-expiry'), Number(timer.payload.promotionId)),
    },
    {
      kind: deps.kinds.reservationExpiry,
      fire: (timer) =>
        deps.checkout.expire(timerContext(timer, 'checkout-reservation-expiry'), String(timer.payload.reservationKey)),
    },
  ];
}
