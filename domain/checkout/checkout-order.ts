/**
 * One order's checkout (stream checkoutOrder-<sha256 of merchant and order id>): the seed's "exactly one selected
 * promotion; stacking is not supported yet" held across requests. The reservation holding the order claims it in the
 * same append as its CheckoutReserved; a second reservation of the order is refused while the first is held (409
 * 8004) or confirmed (409 8012), and a release, expiry or refund frees it so the order can be reserved again. Two
 * reserves racing for one order meet at this stream's expected version: one wins. docs/checkout.md, "One promotion
 * per order".
 */
import type { Decider } from '../shared/decider.js';
import { checkoutError } from './errors.js';
import type { CheckoutOrderEvent } from './events.js';

export interface CheckoutOrderState {
  /** The reservation holding the order (held or confirmed), or null when none does. */
  readonly holder: string | null;
  /** The holder was confirmed (its promotion USED). */
  readonly confirmed: boolean;
}

interface OrderRef {
  merchantId: string;
  orderId: string;
  reservationKey: string;
  now: string;
}

export type CheckoutOrderCommand =
  | ({ type: 'ClaimCheckoutOrder' } & OrderRef)
  | ({ type: 'ConfirmCheckoutOrder' } & OrderRef)
  | ({ type: 'FreeCheckoutOrder' } & OrderRef);

function decide(command: CheckoutOrderCommand, state: CheckoutOrderState): CheckoutOrderEvent[] {
  const { merchantId, orderId, reservationKey, now } = command;
  switch (command.type) {
    case 'ClaimCheckoutOrder':
      if (state.holder === reservationKey) return [];
      // The holder's key is not shown: the refusal says only that the order has its promotion already. Its
      // `reason` tells a client this 8004 or 8012 from the promotion's own (docs/checkout.md, "One promotion per order").
      if (state.holder !== null)
        throw state.confirmed
          ? checkoutError('ORDER_ALREADY_CONFIRMED', `order ${orderId} has a confirmed promotion already`, {
              field: 'order_id',
              reason: 'ORDER_ALREADY_CONFIRMED',
            })
          : checkoutError(
              'ORDER_ALREADY_RESERVED',
              `order ${orderId} holds a promotion already (one per order): release it first`,
              { field: 'order_id', reason: 'ORDER_ALREADY_RESERVED' },
            );
      return [{ type: 'CheckoutOrderClaimed', data: { merchantId, orderId, reservationKey, claimedAt: now } }];
    case 'ConfirmCheckoutOrder':
      if (state.holder !== reservationKey || state.confirmed) return [];
      return [{ type: 'CheckoutOrderConfirmed', data: { merchantId, orderId, reservationKey, confirmedAt: now } }];
    case 'FreeCheckoutOrder':
      // A reservation made before orders were claimed holds none: nothing to free.
      if (state.holder !== reservationKey) return [];
      return [{ type: 'CheckoutOrderFreed', data: { merchantId, orderId, reservationKey, freedAt: now } }];
  }
}

function evolve(state: CheckoutOrderState, event: CheckoutOrderEvent): CheckoutOrderState {
  switch (event.type) {
    case 'CheckoutOrderClaimed':
      return { holder: event.data.reservationKey, confirmed: false };
    case 'CheckoutOrderConfirmed':
      return { ...state, confirmed: true };
    case 'CheckoutOrderFreed':
      return { holder: null, confirmed: false };
  }
}

export const checkoutOrderDecider: Decider<CheckoutOrderCommand, CheckoutOrderState, CheckoutOrderEvent> = {
  initialState: { holder: null, confirmed: false },
  decide,
  evolve,
};
