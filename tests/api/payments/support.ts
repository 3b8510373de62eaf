/**
 * Helpers for the payment hub's HTTP tests: onboarding through the operator API (a merchant, terminals, keys, the
 * secretKey, methods) and signed calls to /api/payments/v1 as a merchant backend makes them (docs/payments-signing.md).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { call, expectOk, operatorHeaders, type HeaderSet, type HttpResult } from '../support.js';

export const walletProviderId = '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02';
export const cardProviderId = '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e01';

export interface HubBody {
  code: number;
  message: string;
  data?: unknown;
}

export interface Onboarded {
  merchantCode: string;
  secretKey: string;
  keys: Record<string, { apiKeyId: string; paymentApiKey: string }>;
}

const op = (baseUrl: string, method: string, path: string, json?: unknown) =>
  call<Record<string, unknown>>(baseUrl, method, `/operator/v1${path}`, { headers: operatorHeaders(), json });

/** A merchant with terminals `terminalIds`, one key each, and WALLET (holding, auto-capture off) and CREDIT_CARD. */
export async function onboardMerchant(
  baseUrl: string,
  merchantCode: string,
  terminalIds: string[] = ['T1'],
): Promise<Onboarded> {
  const created = expectOk(
    await op(baseUrl, 'POST', '/payment-merchants', {
      merchantCode,
      name: `Merchant ${merchantCode}`,
      ipnUrl: `https://${merchantCode}.example/ipn`,
      maxIpnRetries: 5,
    }),
    201,
  );
  const keys: Onboarded['keys'] = {};
  for (const terminalId of terminalIds) {
    expectOk(
      await op(baseUrl, 'POST', `/payment-merchants/${merchantCode}/terminals`, { terminalId, name: terminalId }),
      201,
    );
    const key = expectOk(
      await op(baseUrl, 'POST', `/payment-merchants/${merchantCode}/terminals/${terminalId}/api-keys`, {}),
      201,
    );
    keys[terminalId] = { apiKeyId: key.apiKeyId as string, paymentApiKey: key.paymentApiKey as string };
    expectOk(
      await op(baseUrl, 'PUT', `/payment-merchants/${merchantCode}/terminals/${terminalId}/payment-methods/WALLET`, {
        type: 'WALLET',
        category: 'EWALLET',
        names: { vi: 'Ví điện tử', en: 'E-wallet' },
        iconUrl: 'https://cdn.example/wallet.png',
        requiresRedirect: true,
        sortOrder: 2,
        autoCapture: false,
        providers: [
          {
            providerCode: 'SANDBOX_WALLET',
            priority: 1,
            currencies: [{ currency: 'VND', minAmount: 1000, maxAmount: 50_000_000 }],
          },
        ],
      }),
    );
    expectOk(
      await op(
        baseUrl,
        'PUT',
        `/payment-merchants/${merchantCode}/terminals/${terminalId}/payment-methods/CREDIT_CARD`,
        {
          type: 'CARD',
          category: 'CREDIT',
          names: { vi: 'Thẻ tín dụng', en: 'Credit card' },
          iconUrl: 'https://cdn.example/card.png',
          supportsTokenization: true,
          requiresRedirect: true,
          verificationAmount: 1000,
          sortOrder: 1,
          providers: [
            {
              providerCode: 'SANDBOX_CARD',
              priority: 1,
              currencies: [{ currency: 'VND', minAmount: 10_000, maxAmount: 100_000_000 }],
            },
          ],
        },
      ),
    );
  }
  return { merchantCode, secretKey: created.secretKey as string, keys };
}

export const nowSeconds = (clock: { now(): Date }) => String(Math.floor(clock.now().getTime() / 1000));

export function hubHeaders(apiKey: string | undefined, timestamp: string, requestId = randomUUID()): HeaderSet {
  return { ...gatewayHeaders(), 'X-Payment-API-Key': apiKey, 'X-Request-ID': requestId, 'X-Timestamp': timestamp };
}

export const sign = (secretKey: string, raw: string) => hmacSha256Hex(secretKey, raw);

/** An init body for WALLET through the sandbox wallet, signed over `orderId|referenceId|amount|currency|orderCreatedAt`. */
export function initBody(
  secretKey: string,
  orderId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const orderCreatedAt = 1772359200000;
  const body = {
    amount: 150000,
    currency: 'VND',
    description: `Order ${orderId}`,
    orderId,
    referenceId: `REF-${orderId}`,
    paymentMethodCode: 'WALLET',
    providerId: walletProviderId,
    orderInfo: { customerName: 'Nguyen Van A', orderCreatedAt, items: [] },
    ...extra,
  };
  return {
    ...body,
    secureHash: sign(
      secretKey,
      `${orderId}|${body.referenceId}|${Math.trunc(body.amount)}|${body.currency}|${orderCreatedAt}`,
    ),
  };
}

export const hub = (baseUrl: string, method: string, path: string, headers: HeaderSet, json?: unknown) =>
  call(baseUrl, method, `/api/payments/v1${path}`, { headers, json }) as Promise<
    HttpResult<unknown> & { body: HubBody }
  >;

/**
 * The message of each code the seed's error table gives a text for (spec 001, "Errors"), as a client reads it;
 * 4101's "X-API-Key" is the header the hub reads, X-Payment-API-Key.
 */
export const seedHubMessages: Readonly<Record<number, string>> = {
  4001: 'Invalid request',
  4661: 'Invalid get transaction detail request',
  4012: 'Transaction not available for refund',
  4014: 'Transaction not available for cancel',
  4015: 'Transaction not available for confirm',
  4016: 'Invalid status',
  4017: 'Missing error information',
  4100: 'Invalid API key',
  4101: 'X-Payment-API-Key header is required',
  4200: 'Resource does not belong to this user',
  4301: 'Transaction not found',
  4302: 'User not found',
  4404: 'payment session not found',
  4091: 'Duplicate referenceId',
  4092: 'Duplicate refundReferenceId',
  429: 'Too Many Requests',
  5000: 'Internal server error',
  5001: 'Database error',
};

/**
 * Asserts the hub's failure envelope: {code, message} and, when the refusal has specifics, `data` (an object);
 * integer code, the seed's message for a code it gives one for, no stack trace. Answers what the refusal says of
 * this occurrence: `data.detail` when there is one, else the message.
 */
export function expectHubError(
  res: { status: number; body: unknown; text: string },
  status: number,
  code: number,
): string {
  expect(res.status, res.text).to.equal(status);
  expect(res.body, res.text).to.be.an('object');
  const body = res.body as HubBody;
  expect(Object.keys(body), res.text).to.satisfy(
    (keys: string[]) => keys.join() === 'code,message' || keys.join() === 'code,message,data',
  );
  expect(body.code, res.text).to.equal(code);
  expect(body.message).to.be.a('string').with.length.above(0);
  if (seedHubMessages[code] !== undefined) expect(body.message, res.text).to.equal(seedHubMessages[code]);
  if ('data' in body) {
    expect(body.data, res.text).to.be.an('object');
    expect(Object.keys(body.data as object), res.text).to.have.length.above(0);
  }
  expect(res.text).not.to.match(/\n\s+at |node_modules|\.ts:\d+/);
  const detail = (body.data as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' ? detail : body.message;
}

export function expectHubOk(res: { status: number; body: unknown; text: string }): unknown {
  expect(res.status, res.text).to.equal(200);
  const body = res.body as HubBody;
  expect(body.code, res.text).to.equal(0);
  expect(body.message).to.equal('Success');
  return body.data;
}

/**
 * CREDIT_CARD on a terminal through the sandbox card gateway, with tokenization and a 2D merchant id (a 2D payment
 * there has no 3-D Secure step).
 */
export async function configureTwoDCard(baseUrl: string, merchantCode: string, terminalId: string): Promise<void> {
  expectOk(
    await op(baseUrl, 'PUT', `/payment-merchants/${merchantCode}/terminals/${terminalId}/payment-methods/CREDIT_CARD`, {
      type: 'CARD',
      category: 'CREDIT',
      names: { vi: 'Thẻ', en: 'Card' },
      iconUrl: 'https://cdn.example/card.png',
      supportsTokenization: true,
      requiresRedirect: true,
      sortOrder: 1,
      twoDMerchantId: 'SBX-2D-001',
      providers: [
        {
          providerCode: 'SANDBOX_CARD',
          priority: 1,
          currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 100_000_000 }],
        },
      ],
    }),
  );
}

/** The sandbox page at a redirectUrl as the app at `baseUrl()` serves it: opened, and its forms posted as a browser would. */
export function sandboxPages(baseUrl: () => string) {
  const pageUrl = (redirectUrl: string) => {
    const url = new URL(redirectUrl);
    return { url: `${baseUrl()}${url.pathname}`, token: url.searchParams.get('token')! };
  };
  return {
    pageUrl,
    async open(redirectUrl: string) {
      const { url, token } = pageUrl(redirectUrl);
      const res = await fetch(`${url}?token=${token}`);
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    async submit(redirectUrl: string, form: Record<string, string>) {
      const { url, token } = pageUrl(redirectUrl);
      const res = await fetch(url, {
        method: 'POST',
        body: new URLSearchParams({ token, ...form }),
        redirect: 'manual',
      });
      return { status: res.status, text: await res.text(), location: res.headers.get('location') };
    },
  };
}
