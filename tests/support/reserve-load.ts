/**
 * Shop reserves as load for the fault tests under pressure (docs/testing.md, "Faults under CPU pressure"): a merchant,
 * an active campaign and a few pools of ample stock set up over the operator API, then reserves of one voucher from
 * many users, sent for a set time over keep-alive connections by a process of their own (bench/load-process.ts), so
 * the generator shares no event loop with the test that polls the read models meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { OperatorApi, reserveBody, type PoolData, type ShopMerchant } from '../api/support.js';
import { loadInOwnProcess } from '../../bench/load-process.js';
import type { LoadRequest } from '../../bench/load.js';
import { gatewayHeaders } from './gateway.js';

export interface ReserveScene {
  merchant: ShopMerchant;
  pools: PoolData[];
}

export interface ReserveLoadResult {
  /** Each reservation the service accepted (200), with its pool. */
  accepted: { reservationKey: string; poolId: number }[];
  /** Answers by status. */
  statuses: Map<number, number>;
  elapsedMs: number;
}

/** A merchant with `poolCount` pools of `stock` vouchers each, on sale now. */
export async function reserveScene(baseUrl: string, poolCount = 4, stock = 1_000_000): Promise<ReserveScene> {
  const operator = new OperatorApi(baseUrl);
  const merchant = await operator.createMerchant();
  const campaign = await operator.createActiveCampaign({ startAt: new Date(Date.now() - 3600_000).toISOString() });
  const pools: PoolData[] = [];
  for (let i = 0; i < poolCount; i++) pools.push(await operator.createPool(campaign.id, { totalQuantity: stock }));
  return { merchant, pools };
}

/**
 * `clients` connections sending reserves back to back for `durationMs` (each of one voucher, the pools and 5,000 users
 * in turn, each with its own order and idempotency key: 5,000 requests sent again with new ones until the time is
 * up); resolves when the last answer came.
 */
export async function reserveLoad(
  port: number,
  scene: ReserveScene,
  options: { clients: number; durationMs: number },
): Promise<ReserveLoadResult> {
  const count = 5000;
  const requests: LoadRequest[] = Array.from({ length: count }, (_, i) => {
    const pool = scene.pools[i % scene.pools.length]!;
    return {
      path: '/api/v1/vouchers/reserve',
      headers: {
        ...gatewayHeaders(),
        'x-promotion-api-key': scene.merchant.apiKey,
        'x-merchant-id': scene.merchant.merchantId,
        'x-user-id': `user-${i % 5000}`,
        'x-request-id': randomUUID(),
        'x-idempotency-key': randomUUID(),
      },
      body: reserveBody([{ pool }], `order-${i}-${randomUUID()}`),
    };
  });
  const result = await loadInOwnProcess(port, requests, options.clients, {
    durationMs: options.durationMs,
    again: { headers: ['x-idempotency-key', 'x-request-id'], bodyFields: ['orderId'] },
  });
  const accepted = result.bodies
    .filter((b) => b.status === 200)
    .map((b) => ({
      reservationKey: (b.body as { data: { reservationKey: string } }).data.reservationKey,
      poolId: scene.pools[b.index % scene.pools.length]!.poolId,
    }));
  return { accepted, statuses: result.statuses, elapsedMs: result.elapsedMs };
}
