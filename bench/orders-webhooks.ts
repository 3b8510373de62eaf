/**
 * bench:orders' webhook load (docs/orders-read-models.md, "Benchmark"): orders of many merchants, each an
 * order.created, an order.updated with amounts (paid) and either an order.updated without amounts (completed) or an
 * order.cancelled, signed with the merchant's secretKey (tests/api/orders/support.ts: the test suite's own
 * implementation of the string to sign, not the service's). Orders overlap in time as a busy sender's do; 5% of the
 * webhooks are delivered out of order (swapped with the next webhook of the same order: an update before its created,
 * a cancellation before the update it follows) and 5% are repeats of one sent earlier (half a retry under the same
 * X-Request-Id, half a resend under a new one).
 */
import { randomUUID } from 'node:crypto';
import { sign } from '../tests/api/orders/support.js';
import { benchGatewayHeaders } from './gateway-party.js';
import { seeded, type LoadRequest } from './load.js';

export interface BenchMerchant {
  merchantId: string;
  apiKey: string;
  secretKey: string;
}

/** A webhook the load sends: its request, and the history row it must leave (one per distinct webhook). */
export interface PlannedWebhook {
  request: LoadRequest;
  /** `merchant|order|event|event_timestamp`: the history row this webhook's event makes. */
  key: string;
  merchantId: string;
  orderId: string;
  kind: 'created' | 'updated' | 'cancelled';
  /** Index of the distinct webhook this one repeats, else undefined. */
  repeatOf?: number;
}

const events = { created: 'order.created', updated: 'order.updated', cancelled: 'order.cancelled' };

/**
 * `total` webhooks (distinct ones and 5% repeats) of `merchants`, in delivery order. Orders are spread so that about
 * `overlap` of them are in flight at once; `tag` makes the order ids of one run unique.
 */
export function planWebhooks(total: number, merchants: BenchMerchant[], tag: string, now: number, overlap = 300) {
  const random = seeded(16);
  const repeats = Math.round(total * 0.05);
  const distinct = total - repeats;
  const orders = Math.ceil(distinct / 3);
  // Each webhook gets a slot: step s of order j at j + s * overlap, so an order's webhooks are `overlap` apart.
  const slots: { order: number; step: number; slot: number }[] = [];
  for (let j = 0; j < orders; j++)
    for (let s = 0; s < 3 && slots.length < distinct; s++) slots.push({ order: j, step: s, slot: j + s * overlap });
  slots.sort((a, b) => a.slot - b.slot || a.order - b.order);
  // Out of order: 5% of the webhooks swap places with the next webhook of their order.
  const position = new Map<string, number>();
  slots.forEach((w, i) => position.set(`${w.order}:${w.step}`, i));
  let swapped = 0;
  for (let tries = 0; swapped < Math.round(total * 0.05) && tries < total * 10; tries++) {
    const w = slots[Math.floor(random() * slots.length)]!;
    const i = position.get(`${w.order}:${w.step}`)!;
    const k = position.get(`${w.order}:${w.step + 1}`);
    if (k === undefined || w.slot < 0) continue; // the last of its order, or moved already
    [slots[i], slots[k]] = [slots[k]!, slots[i]!];
    position.set(`${w.order}:${w.step}`, k);
    position.set(`${w.order}:${w.step + 1}`, i);
    slots[i]!.slot = slots[k]!.slot = -1; // each webhook moves once
    swapped++;
  }
  const planned: PlannedWebhook[] = slots.map(({ order: j, step }) => {
    const m = merchants[j % merchants.length]!;
    const orderId = `W-${tag}-${j}`;
    const createdAt = now - 20 * 60_000 + Math.floor((j / orders) * 10 * 60_000);
    const price = 100_000 * (1 + (j % 50));
    const cancels = j % 4 === 0;
    let kind: PlannedWebhook['kind'] = 'created';
    let body: Record<string, unknown> & { event_timestamp: number; order: Record<string, unknown> };
    if (step === 0)
      body = {
        event_timestamp: createdAt,
        created_by: `bench-cust-${j % 500}`,
        platform_code: 'HOSTAPP',
        miniapp_id: 'bench-mini',
        order: {
          order_id: orderId,
          order_type: ['CAR_PURCHASE', 'AFTER_SALES', 'BILLING_PAYMENT', 'EV_AND_CHARGING'][j % 4],
          order_name: `Bench order ${j}`,
          deeplink: `superapp://orders/${orderId}`,
          status: 'CREATED',
          pnl_order_status: 'NEW',
          payment_status: 'UNPAID',
          business_unit_id: `BU-${m.merchantId}`,
          branch_id: `BR-${j % 7}`,
          customer: { customer_id: `bench-cust-${j % 500}`, name: 'Khách hàng', phone: '0901234567' },
          items: [{ item_id: 'i1', name: 'Item', quantity: 1, unit_price: price, total_price: price, currency: 'VND' }],
          amounts: { currency: 'VND', total_amount: price, grand_total: price },
          metadata: { channel: 'bench', order: j },
        },
      };
    else if (step === 1) {
      kind = 'updated';
      body = {
        event_timestamp: createdAt + 1000,
        order: {
          order_id: orderId,
          status: 'PAID',
          payment_status: 'PAID',
          amounts: { total_amount: price, grand_total: price, paid_amount: price },
          transactions: [
            { transaction_id: `T-${tag}-${j}`, provider: 'WALLET', method: 'WALLET', amount: price, status: 'OK' },
          ],
        },
      };
    } else {
      kind = cancels ? 'cancelled' : 'updated';
      body = cancels
        ? { event_timestamp: createdAt + 2000, order: { order_id: orderId } }
        : { event_timestamp: createdAt + 2000, order: { order_id: orderId, status: 'COMPLETED' } };
    }
    return {
      request: {
        path: `/order/cov/webhook/v1/orders/${kind}`,
        headers: { ...benchGatewayHeaders, 'x-api-key': m.apiKey, 'x-request-id': randomUUID() },
        body: { secure_hash: sign(m.secretKey, kind, body), ...body },
      },
      key: `${m.merchantId}|${orderId}|${events[kind]}|${body.event_timestamp}`,
      merchantId: m.merchantId,
      orderId,
      kind,
    };
  });
  // Repeats: each a webhook sent earlier, resent a little later (after up to 2000 others).
  const out = [...planned];
  for (let r = 0; r < repeats; r++) {
    const of = Math.floor(random() * planned.length);
    const original = planned[of]!;
    const sameId = r % 2 === 0;
    const repeat: PlannedWebhook = {
      ...original,
      repeatOf: of,
      request: {
        ...original.request,
        headers: {
          ...original.request.headers,
          'x-request-id': sameId ? original.request.headers['x-request-id']! : randomUUID(),
        },
      },
    };
    const at = out.indexOf(original) + 1 + Math.floor(random() * 2000);
    out.splice(Math.min(at, out.length), 0, repeat);
  }
  return { webhooks: out, orders, distinct, repeats, swapped };
}
