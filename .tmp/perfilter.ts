import knexFactory from 'knex';
import { PostgresOrderReadModel } from '../infrastructure/orders/order-read-model.js';
import { portalFilters } from '../bench/orders-queries.js';
const knex = knexFactory({ client: 'pg', connection: process.env.DB, pool: { min: 1, max: 2 } });
const m = new PostgresOrderReadModel(knex);
const shape = { orders: 1_000_000, merchants: 50, ordersPerCustomer: 10, days: 180, now: Date.now() };
const names = ['merchant', 'merchant+status', 'bu+week', 'branch', 'seller', 'type+status+day', 'merchant+payment', 'day', 'customer', 'none'];
const times: number[][] = names.map(() => []);
for (let i = 0; i < 300; i++) {
  const q = new URLSearchParams(portalFilters(shape, i));
  const f: Record<string, string> = {};
  const map: Record<string, string> = { merchant_id: 'merchantId', status: 'status', business_unit_id: 'businessUnitId', branch_id: 'branchId', seller_merchant_id: 'sellerMerchantId', order_type: 'orderType', payment_status: 'paymentStatus', customer_id: 'customerId', from: 'from', to: 'to' };
  for (const [k, v] of q) if (map[k]) f[map[k]!] = v;
  const t0 = performance.now();
  await m.list(f as never, { page: 1, size: 50 } as never);
  times[i % 10]!.push(performance.now() - t0);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const p90 = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length * 0.9)]!;
names.forEach((n, i) => console.log(n.padEnd(18), 'median', med(times[i]!.slice(10)).toFixed(1), 'p90', p90(times[i]!.slice(10)).toFixed(1)));
await knex.destroy();
