/** One promotion per order, given/when/then (domain/checkout/checkout-order.ts; docs/checkout.md). */
import type { CheckoutOrderEvent } from '../../../../domain/checkout/events.js';
import { checkoutOrderDecider, type CheckoutOrderCommand } from '../../../../domain/checkout/checkout-order.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(checkoutOrderDecider);
const at = '2026-06-01T10:00:00.000Z';
const ref = (reservationKey: string) => ({ merchantId: 'M001', orderId: 'ĐH-1', reservationKey });
const claimed = (key: string): CheckoutOrderEvent => ({
  type: 'CheckoutOrderClaimed',
  data: { ...ref(key), claimedAt: at },
});
const confirmed = (key: string): CheckoutOrderEvent => ({
  type: 'CheckoutOrderConfirmed',
  data: { ...ref(key), confirmedAt: at },
});
const freed = (key: string): CheckoutOrderEvent => ({ type: 'CheckoutOrderFreed', data: { ...ref(key), freedAt: at } });
const command = (type: CheckoutOrderCommand['type'], key: string): CheckoutOrderCommand => ({
  type,
  ...ref(key),
  now: at,
});

describe('checkout order decider (one promotion per order)', () => {
  it('claims a free order for a reservation; the same reservation again changes nothing', () => {
    given([])
      .when(command('ClaimCheckoutOrder', 'k1'))
      .then([claimed('k1')]);
    given([claimed('k1')])
      .when(command('ClaimCheckoutOrder', 'k1'))
      .then([]);
  });

  it('refuses a second reservation while the first holds the order (8004), naming no reservation', () => {
    given([claimed('k1')])
      .when(command('ClaimCheckoutOrder', 'k2'))
      .thenRejects('ORDER_ALREADY_RESERVED', { field: 'order_id' });
  });

  it('refuses a second reservation of an order whose reservation was confirmed (8012)', () => {
    given([claimed('k1')])
      .when(command('ConfirmCheckoutOrder', 'k1'))
      .then([confirmed('k1')]);
    given([claimed('k1'), confirmed('k1')])
      .when(command('ClaimCheckoutOrder', 'k2'))
      .thenRejects('ORDER_ALREADY_CONFIRMED', { field: 'order_id' });
  });

  it('a release, expiry or refund frees the order for another reservation', () => {
    given([claimed('k1')])
      .when(command('FreeCheckoutOrder', 'k1'))
      .then([freed('k1')]);
    given([claimed('k1'), confirmed('k1')])
      .when(command('FreeCheckoutOrder', 'k1'))
      .then([freed('k1')]);
    given([claimed('k1'), freed('k1')])
      .when(command('ClaimCheckoutOrder', 'k2'))
      .then([claimed('k2')]);
    given([claimed('k1'), confirmed('k1'), freed('k1')])
      .when(command('ClaimCheckoutOrder', 'k2'))
      .then([claimed('k2')]);
  });

  it("another reservation's (or an unclaimed reservation's) confirm or free changes nothing", () => {
    given([claimed('k1')])
      .when(command('FreeCheckoutOrder', 'k0'))
      .then([]);
    given([claimed('k1')])
      .when(command('ConfirmCheckoutOrder', 'k0'))
      .then([]);
    given([]).when(command('FreeCheckoutOrder', 'k0')).then([]);
    given([claimed('k1'), confirmed('k1')])
      .when(command('ConfirmCheckoutOrder', 'k1'))
      .then([]);
  });
});
