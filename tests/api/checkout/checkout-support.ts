/** Calls of the checkout interface (/loyalty/v1/promotion) and the operator's promotion endpoints, for API tests. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { promotionMasterBody } from '../../support/checkout-fixtures.js';
import {
  call,
  expectEnvelope,
  expectOk,
  OperatorApi,
  unique,
  type HeaderSet,
  type HttpResult,
  type ShopMerchant,
} from '../support.js';

/** A checkout success: 200, code "0", message "Success"; answers data. */
export function checkoutOk<T>(res: HttpResult<T>): T {
  const data = expectEnvelope(res, 200, '0');
  expect(res.body!.message).to.equal('Success');
  return data;
}

/** The seed's checkout error table (spec part B, "Errors"): the message of each of its codes. */
export const seedCheckoutMessages: Readonly<Record<string, string>> = {
  '8001': 'Voucher not applicable',
  '8002': 'Invalid voucher code',
  '8003': 'Voucher not found',
  '8004': 'Voucher already reserved',
  '8005': 'Voucher out of stock',
  '8006': 'Order minimum not met',
  '8007': 'Voucher expired',
  '8008': 'Usage limit exceeded',
  '8009': 'User not eligible',
  '8010': 'Reservation not found',
  '8011': 'Reservation expired',
  '8012': 'Reservation already confirmed',
  '8500': 'Promotion service error',
  '8501': 'Promotion service timeout',
};

/**
 * A checkout refusal: status and code in the envelope, the seed's message for its codes (what was wrong this time
 * in `data.detail`); `detail` (when given) matches that detail, or the message of a code the seed gives no text for.
 * Answers its data (the refusal's specifics, or null).
 */
export function checkoutRefusal(res: HttpResult<unknown>, status: number, code: string, detail?: RegExp): unknown {
  const data = expectEnvelope(res, status, code);
  const seed = seedCheckoutMessages[code];
  if (seed !== undefined) {
    expect(res.body!.message, res.text).to.equal(seed);
    expect(data, res.text).to.be.an('object').with.property('detail').that.is.a('string');
  }
  if (detail) expect(seed === undefined ? res.body!.message : (data as { detail: string }).detail).to.match(detail);
  return data;
}
import type { TestApp } from '../../support/app.js';

export interface Line {
  item_id: string;
  quantity: number;
  unit_price: number;
  categories?: string[];
}

export interface OrderInput {
  merchant_id: string;
  subtotal: number;
  items: Line[];
}

/** An order of one merchant whose subtotal is the sum of its lines. */
export function order(merchantId: string, lines: Line[]): OrderInput {
  return { merchant_id: merchantId, subtotal: lines.reduce((s, l) => s + l.unit_price * l.quantity, 0), items: lines };
}

export const line = (itemId: string, quantity: number, unitPrice: number, categories?: string[]): Line => ({
  item_id: itemId,
  quantity,
  unit_price: unitPrice,
  ...(categories && { categories }),
});

export interface DiscountData {
  total_discount: number;
  original_total: number;
  final_amount: number;
  breakdown: {
    promotion: Record<string, unknown>;
    discount: { amount: number; scope: string; merchant_id?: string };
  }[];
}

export interface ApplicableData {
  promotion_id: number;
  promotion_master_id: number;
  code: string;
  is_eligibility: boolean;
  ineligible_reason: string | null;
  pin_code?: string;
  expires_at: number;
}

export interface StatusesData {
  promotions: { promotion_id: number; promotion_master_id: number; code: string; status: string; code_type: string }[];
}

/** One wallet owner of one merchant calling the checkout. */
export class CheckoutCaller {
  constructor(
    readonly baseUrl: string,
    readonly merchant: ShopMerchant,
    readonly userId: string = unique('wallet-'),
    /** Headers every call sends (another gateway pair, say) before its own. */
    readonly defaults: HeaderSet = {},
  ) {}

  headers(overrides: HeaderSet = {}): HeaderSet {
    return {
      ...gatewayHeaders(),
      ...this.defaults,
      env: 'dev',
      'X-Auth-Audience': 'superapp',
      'X-Merchant-Id': this.merchant.merchantId,
      'X-App-Id': 'miniapp-1',
      'X-App-User-Id': this.userId,
      'X-Promotion-API-Key': this.merchant.apiKey,
      'X-Request-Id': randomUUID(),
      ...overrides,
    };
  }

  post<T>(path: string, json: unknown, headers: HeaderSet = {}): Promise<HttpResult<T>> {
    return call<T>(this.baseUrl, 'POST', `/loyalty/v1/promotion/${path}`, { json, headers: this.headers(headers) });
  }

  applicable(orders: OrderInput[]) {
    return this.post<{ applicable_promotions: { discount_promotions: ApplicableData[] } }>('applicable', { orders });
  }

  preview(promotionId: number, orders: OrderInput[], codeType = 'UNIQUE') {
    return this.post<DiscountData>('preview-discount', {
      selected_promotions: [{ promotion_id: promotionId, code_type: codeType }],
      orders,
    });
  }

  /** The order each reservation this caller made was for, so that `step` names it by default. */
  private readonly orderOf = new Map<string, string>();

  /** Under a new order id unless told (an order holds one reservation at a time: docs/checkout.md). */
  async reserve(
    promotionId: number,
    orders: OrderInput[],
    options: { orderId?: string; key?: string; pin?: string; codeType?: string } = {},
  ) {
    const orderId = options.orderId ?? unique('order-');
    const res = await this.post<{ reservation_key: string; discount: DiscountData }>(
      'reserve',
      {
        order_id: orderId,
        selected_promotions: [
          {
            promotion_id: promotionId,
            code_type: options.codeType ?? 'UNIQUE',
            ...(options.pin !== undefined && { pin_code: options.pin }),
          },
        ],
        orders,
      },
      { 'X-Idempotency-Key': options.key ?? randomUUID() },
    );
    const key = (res.body?.data as { reservation_key?: unknown } | null | undefined)?.reservation_key;
    if (typeof key === 'string' && !this.orderOf.has(key)) this.orderOf.set(key, orderId);
    return res;
  }

  /** On the reservation's own order unless told. */
  step(
    what: 'confirm' | 'release' | 'refund' | 'get-reservation',
    reservationKey: string,
    orderId = this.orderOf.get(reservationKey) ?? 'order-1',
  ) {
    return this.post<StatusesData & { reservation_key?: string; order_id?: string; status?: string }>(what, {
      reservation_key: reservationKey,
      order_id: orderId,
    });
  }
}

/**
 * A merchant with a key (`M001` unless told: the merchant the fixture's masters are scoped to, so that its promotions
 * are usable at the scene's caller), and the operator to make masters and issue promotions with.
 */
export async function checkoutScene(app: Pick<TestApp, 'baseUrl'>, defaults: HeaderSet = {}, merchantId = 'M001') {
  const operator = new OperatorApi(app.baseUrl);
  const merchant = await operator.createMerchant({ merchantId });
  return {
    operator,
    merchant,
    caller: (userId?: string) => new CheckoutCaller(app.baseUrl, merchant, userId, defaults),
    async master(overrides: Record<string, unknown> = {}): Promise<number> {
      const m = expectOk(
        await operator.call<{ promotion_master_id: number }>('POST', '/promotion-masters', {
          json: promotionMasterBody({
            valid_from: '2026-01-01T00:00:00Z',
            valid_until: '2030-01-01T00:00:00Z',
            categories: null,
            per_user_limit: null,
            total_quota: null,
            ...overrides,
          }),
        }),
        201,
      );
      return m.promotion_master_id;
    },
    async issue(masterId: number, userIds: string[]): Promise<{ promotion_id: number; code: string }[]> {
      const issued = expectOk(
        await operator.call<{ issued: { promotion_id: number; user_id: string; code: string }[] }>(
          'POST',
          `/promotion-masters/${masterId}/issued-promotions`,
          { json: { recipients: userIds.map((user_id) => ({ user_id })) } },
        ),
        201,
      );
      return issued.issued;
    },
  };
}

/** Waits until the wallet read model lists the promotion for the caller (applicable reads it). */
export async function listed(caller: CheckoutCaller, promotionId: number, orders: OrderInput[]) {
  return eventually(async () => {
    const found = checkoutOk(await caller.applicable(orders)).applicable_promotions.discount_promotions.find(
      (p) => p.promotion_id === promotionId,
    );
    expect(found, `promotion ${promotionId} in the wallet`).to.not.equal(undefined);
    return found!;
  });
}
