/**
 * The order view demo for `npm start` (docs/orders.md, "Demo"; README, "Order view"): the merchant DEMO_AUTO with a
 * `test` key pair, and three dozen orders of the demo users in every named product type, with payments, deliveries,
 * cancellations, a late and an early webhook, sent through the webhooks themselves over HTTP (behind the gateway, as
 * the demo-orders party). Idempotent across restarts: the key pair (shown once) is kept under `orders` in
 * `<dataDir>/demo-credentials.json` (a lost or stale one is rotated), and the orders are sent only once.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { keepDemoCredentials, readDemoCredentials } from '../shared/demo-credentials.js';
import { isDomainError } from '../../application/shared/errors.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import type { OrdersServices } from '../../application/orders/index.js';
import { stringToSign, type SignedWebhook } from '../../application/orders/index.js';
import type { DemoSeed } from '../shared/demo-seed.js';
import type { OrdersConfig } from './config.js';

export interface OrdersDemoData {
  merchantId: string;
  keyId: number;
  apiKey: string;
  secretKey: string;
  /** Orders sent by this start (0 when they were sent before). */
  ordersSent: number;
}

const merchantId = 'DEMO_AUTO';
const asSeed = () => newCommandContext({ actor: { operator: 'demo-seed' } });

const types = ['CAR_PURCHASE', 'AFTER_SALES', 'BILLING_PAYMENT', 'PROMOTION_PURCHASE', 'EV_AND_CHARGING'] as const;
const products: Record<(typeof types)[number], [name: string, price: number]> = {
  CAR_PURCHASE: ['Đặt cọc VF 8', 15_000_000],
  AFTER_SALES: ['Bảo dưỡng định kỳ 12.000 km', 1_850_000],
  BILLING_PAYMENT: ['Hoá đơn điện tháng', 640_000],
  PROMOTION_PURCHASE: ['Voucher giảm 50k', 45_000],
  EV_AND_CHARGING: ['Sạc nhanh 30 phút', 120_000],
};
const users: [id: string, name: string][] = [
  ['demo-user-1', 'Nguyễn Văn An'],
  ['demo-user-2', 'Trần Thị Bình'],
  ['demo-user-3', 'Lê Minh Châu'],
];

type Webhook = {
  kind: 'created' | 'updated' | 'cancelled';
  body: Record<string, unknown> & { order: Record<string, unknown> & { order_id: string } };
};

/** The demo's webhooks, oldest first: 36 orders over the last days, their updates and cancellations. */
export function demoWebhooks(now: number): Webhook[] {
  const out: Webhook[] = [];
  for (let n = 1; n <= 36; n++) {
    const type = types[n % types.length]!;
    const [name, price] = products[type];
    const [userId, userName] = users[n % users.length]!;
    const orderId = `DEMO-${String(n).padStart(4, '0')}`;
    const at = now - (40 - n) * 3_600_000;
    const discount = n % 4 === 0 ? Math.round(price / 10) : 0;
    out.push({
      kind: 'created',
      body: {
        event_timestamp: at,
        created_by: userId,
        platform_code: 'SUPERAPP',
        miniapp_id: 'demo-miniapp',
        order: {
          order_id: orderId,
          order_type: type,
          order_name: name,
          deeplink: `superapp://orders/${orderId}`,
          status: 'CREATED',
          pnl_order_status: 'NEW',
          payment_status: 'UNPAID',
          business_unit_id: 'BU-HN',
          branch_id: n % 2 ? 'BR-LONG-BIEN' : 'BR-CAU-GIAY',
          customer: { customer_id: userId, name: userName },
          items: [
            { item_id: `${orderId}-1`, name, quantity: 1, unit_price: price, total_price: price, currency: 'VND' },
          ],
          ...(discount && {
            promotion_infos: [
              { voucher_code: 'GIAM10', discount_type: 'PERCENT', discount_value: 10, discount_amount: discount },
            ],
          }),
          amounts: { currency: 'VND', total_amount: price, grand_total: price - discount },
          metadata: { channel: 'demo', seq: n },
        },
      },
    });
    const paid = {
      order_id: orderId,
      payment_status: 'PAID',
      amounts: { grand_total: price - discount, total_amount: price, paid_amount: price - discount },
    };
    if (n % 4 !== 0)
      out.push({ kind: 'updated', body: { event_timestamp: at + 60_000, order: { ...paid, status: 'CONFIRMED' } } });
    if (n % 4 === 1)
      out.push({
        kind: 'updated',
        body: { event_timestamp: at + 120_000, order: { order_id: orderId, status: 'COMPLETED' } },
      });
    if (n % 5 === 0)
      out.push({ kind: 'cancelled', body: { event_timestamp: at + 180_000, order: { order_id: orderId } } });
  }
  // A late webhook (older than what DEMO-0001 shows: kept in its history only) and an early one (DEMO-0037's update
  // before its created: parked, then applied).
  out.push({
    kind: 'updated',
    body: { event_timestamp: now - 39 * 3_600_000 + 30_000, order: { order_id: 'DEMO-0001', status: 'PROCESSING' } },
  });
  out.push({
    kind: 'updated',
    body: { event_timestamp: now - 60_000, order: { order_id: 'DEMO-0037', status: 'DELIVERING' } },
  });
  out.push({
    kind: 'created',
    body: {
      ...out[0]!.body,
      event_timestamp: now - 120_000,
      order: { ...(out[0]!.body.order as object), order_id: 'DEMO-0037' },
    },
  });
  return out;
}

const kinds = { created: 'CREATED', updated: 'UPDATED', cancelled: 'CANCELLED' } as const;

/** secure_hash of a demo webhook, as a sender computes it. */
function signed(secretKey: string, w: Webhook): Record<string, unknown> {
  const o = w.body.order as SignedWebhook['order'] & { order_id: string };
  const signable: SignedWebhook = {
    kind: kinds[w.kind],
    eventTimestamp: w.body.event_timestamp as number,
    orderId: o.order_id,
    order: o,
    source: {
      created_by: String(w.body.created_by),
      platform_code: String(w.body.platform_code),
      miniapp_id: String(w.body.miniapp_id),
    },
  };
  return { secure_hash: createHmac('sha256', secretKey).update(stringToSign(signable)).digest('hex'), ...w.body };
}

export async function seedOrdersDemo(
  services: Pick<OrdersServices, 'merchants'>,
  dataDir: string,
  webhooks: { baseUrl: string; gateway: { clientId: string; clientSecret: string } } | undefined,
): Promise<OrdersDemoData> {
  const saved = readDemoCredentials(dataDir).orders as OrdersDemoData | undefined;

  const merchant = await services.merchants.get(merchantId).catch(async (e: unknown) => {
    if (!isDomainError(e) || e.code !== 'ORDER_MERCHANT_NOT_FOUND') throw e;
    return services.merchants.register(asSeed(), { merchantId, name: 'Ô tô Demo (đại lý Hà Nội)' });
  });
  const active = merchant.keys.find((k) => k.status === 'ACTIVE' && k.environment === 'test');
  let keys = saved && active && saved.keyId === active.keyId ? saved : undefined;
  if (!keys) {
    const issued = active
      ? await services.merchants.rotate(asSeed(), merchantId, active.keyId, 0)
      : await services.merchants.issue(asSeed(), merchantId, 'test');
    keys = { merchantId, keyId: issued.keyId, apiKey: issued.apiKey, secretKey: issued.secretKey, ordersSent: 0 };
  }

  let ordersSent = 0;
  if (webhooks && !(saved && saved.ordersSent > 0)) {
    for (const w of demoWebhooks(Date.now())) {
      // Not an outbound call (docs/outbound.md): the demo seed posts to this very process's own webhooks, at the
      // loopback address main.ts listens on, never at an address anyone supplies; production never seeds the demo.
      const res = await fetch(`${webhooks.baseUrl}/order/cov/webhook/v1/orders/${w.kind}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          client_id: webhooks.gateway.clientId,
          client_secret: webhooks.gateway.clientSecret,
          'X-API-Key': keys.apiKey,
          'X-Request-Id': randomUUID(),
        },
        body: JSON.stringify(signed(keys.secretKey, w)),
      });
      if (res.status !== 200)
        throw new Error(`demo webhook ${w.kind} ${w.body.order.order_id}: ${res.status} ${await res.text()}`);
      if (w.kind === 'created') ordersSent++;
    }
  }
  const data: OrdersDemoData = { ...keys, ordersSent: Math.max(ordersSent, saved?.ordersSent ?? 0) };
  keepDemoCredentials(dataDir, { orders: data });
  return { ...data, ordersSent };
}

/**
 * The order view's module seed (context-module.ts, `demo`): the merchant and its orders above, sent through this
 * process's own webhooks with the gateway's demo pair for the order view (none when this process serves no API), and
 * the banner's lines.
 */
export const ordersDemo: DemoSeed<Pick<OrdersServices, 'merchants'>, OrdersConfig> = async (services, demo) => {
  const gateway = demo.client('orders');
  const webhooks = demo.servedAt !== undefined && gateway ? { baseUrl: demo.servedAt, gateway } : undefined;
  const orders = await seedOrdersDemo(services, demo.config.DATA_DIR, webhooks);
  return {
    lines: [
      `Order view demo (docs/orders.md; README, "Order view"): merchant ${orders.merchantId}, ${orders.ordersSent} orders sent now`,
      `  X-API-Key:            ${orders.apiKey}`,
      `  secretKey:            ${orders.secretKey}`,
    ],
  };
};
