/**
 * The order view over HTTP for tests: a merchant with its keys through the operator API, webhooks signed as the seed
 * says (with an independent implementation of the string to sign, so a mistake in the service's is not copied here)
 * and sent with the gateway's and the order view's headers.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders, type HeaderSet, type HttpResult } from '../support.js';

export interface MerchantKeys {
  merchantId: string;
  keyId: number;
  apiKey: string;
  secretKey: string;
}

export async function merchantWithKey(app: TestApp, merchantId: string, environment = 'test'): Promise<MerchantKeys> {
  expectOk(
    await call(app.baseUrl, 'POST', '/operator/v1/order-merchants', {
      headers: operatorHeaders(),
      json: { merchant_id: merchantId, name: `Merchant ${merchantId}` },
    }),
    201,
  );
  return issueKey(app, merchantId, environment);
}

export async function issueKey(app: TestApp, merchantId: string, environment = 'test'): Promise<MerchantKeys> {
  const issued = expectOk(
    await call<{ key_id: number; api_key: string; secret_key: string }>(
      app.baseUrl,
      'POST',
      `/operator/v1/order-merchants/${merchantId}/keys`,
      { headers: operatorHeaders(), json: { environment } },
    ),
    201,
  );
  return { merchantId, keyId: issued.key_id, apiKey: issued.api_key, secretKey: issued.secret_key };
}

type Body = Record<string, unknown> & { event_timestamp: number; order: Record<string, unknown> };

/** The seed's string to sign, written out field by field for each event. */
export function stringToSign(kind: 'created' | 'updated' | 'cancelled', body: Body): string {
  const o = body.order as Record<string, unknown> & { amounts?: Record<string, number> };
  const int = (n: number | undefined) => String(Math.trunc(n ?? 0));
  if (kind === 'created') {
    const parts: string[] = [];
    if (o.branch_id !== undefined) parts.push(String(o.branch_id));
    if (o.business_unit_id !== undefined) parts.push(String(o.business_unit_id));
    parts.push(String(body.event_timestamp), int(o.amounts?.grand_total), String(body.miniapp_id), String(o.order_id));
    parts.push(String(body.platform_code));
    if (o.seller_merchant_id !== undefined) parts.push(String(o.seller_merchant_id));
    parts.push(int(o.amounts?.total_amount));
    return parts.join('|');
  }
  if (kind === 'updated' && o.amounts?.grand_total !== undefined)
    return [body.event_timestamp, int(o.amounts.grand_total), o.order_id, int(o.amounts.total_amount)].join('|');
  return `${body.event_timestamp}|${String(o.order_id)}`;
}

export const sign = (secretKey: string, kind: 'created' | 'updated' | 'cancelled', body: Body): string =>
  createHmac('sha256', secretKey).update(stringToSign(kind, body)).digest('hex');

/** A valid order.created body (not yet signed). */
export function createdBody(orderId: string, overrides: Partial<Body> = {}, order: Record<string, unknown> = {}): Body {
  return {
    event_timestamp: Date.now() - 60_000,
    created_by: 'user-1',
    platform_code: 'HOSTAPP',
    miniapp_id: 'car-mini',
    ...overrides,
    order: {
      order_id: orderId,
      order_type: 'CAR_PURCHASE',
      order_name: 'VF 8 deposit',
      deeplink: `superapp://orders/${orderId}`,
      status: 'CREATED',
      pnl_order_status: 'NEW',
      payment_status: 'UNPAID',
      business_unit_id: 'BU-01',
      branch_id: 'BR-07',
      customer: { customer_id: 'user-1', name: 'Nguyễn Văn An', phone: '0901234567', email: 'an@example.vn' },
      items: [
        {
          item_id: 'i1',
          name: 'Deposit',
          quantity: 1,
          unit_price: 10_000_000,
          total_price: 10_000_000,
          currency: 'VND',
        },
      ],
      amounts: { currency: 'VND', total_amount: 10_000_000, grand_total: 9_500_000 },
      ...order,
    },
  };
}

export interface SendOptions {
  keys: MerchantKeys;
  requestId?: string;
  headers?: HeaderSet;
  /** Sent as it is instead of JSON.stringify(body) (raw text for byte-for-byte checks). */
  rawBody?: string;
  /** Leave secure_hash as the body has it. */
  unsigned?: boolean;
}

export async function sendWebhook(
  app: TestApp,
  kind: 'created' | 'updated' | 'cancelled',
  body: Body,
  options: SendOptions,
): Promise<HttpResult<WebhookAnswer>> {
  const signed = options.unsigned ? body : { secure_hash: sign(options.keys.secretKey, kind, body), ...body };
  return call<WebhookAnswer>(app.baseUrl, 'POST', `/order/cov/webhook/v1/orders/${kind}`, {
    headers: {
      ...gatewayHeaders(),
      'Content-Type': 'application/json',
      'X-API-Key': options.keys.apiKey,
      'X-Request-Id': options.requestId ?? randomUUID(),
      ...options.headers,
    },
    rawBody: options.rawBody ?? JSON.stringify(signed),
  });
}

export interface WebhookAnswer {
  order_id: string;
  event: string;
  outcome: string;
  applied_fields: string[];
  stale_fields: string[];
  early_applied: number;
  early_discarded: number;
  warnings: string[];
}

/** The order view's envelope: status, numeric code, a message, no stack trace; returns data. */
export function expectOrders<T>(res: HttpResult<T>, status: number, code: number, message?: RegExp): T {
  expect(res.status, res.text).to.equal(status);
  expect(res.body, res.text).to.be.an('object').that.has.all.keys('code', 'message', 'data');
  expect(res.body!.code, res.text).to.equal(code);
  expect(res.body!.message).to.be.a('string').with.length.above(0);
  if (message) expect(res.body!.message).to.match(message);
  expect(res.text).not.to.match(/\n\s+at |\bat [\w.<>]+ \(|node_modules|\.ts:\d+/);
  return res.body!.data;
}
