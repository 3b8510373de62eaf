/**
 * The authorization matrix's tables (matrix.test.ts): for each interface, the credentials its routes take, which
 * cases apply to each route, the refusal (status and code) each case gets, and how a case is asked. A served route
 * none of them names fails the matrix, so a new route is put here when it is added. Codes: each interface's doc.
 */
import { randomUUID } from 'node:crypto';
import { gatewayHeaders } from '../../support/gateway.js';
import { CheckoutCaller, line, order } from '../checkout/checkout-support.js';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { createdBody } from '../orders/support.js';
import { hubHeaders } from '../payments/support.js';
import { Shopper, type HeaderSet, type ShopMerchant } from '../support.js';
import type { MatrixWorld } from './fixtures.js';

/** The credentials a case presents instead of the right ones. */
export type Case =
  /** No credentials at all (no gateway pair, no key, no token). */
  | 'none'
  /** A valid gateway pair of another party, one not granted this interface. */
  | 'otherParty'
  /** The gateway passed, the interface's own credential (key, token, client) left out. */
  | 'noOwnCredential'
  /** Merchant B's valid key, presented as merchant A's (X-Merchant-Id: A). */
  | 'otherMerchantKey'
  /** Merchant B with its own valid key, naming merchant A's reservation or promotion. */
  | 'otherMerchantsThing'
  /** User B's valid credentials (a token, or X-User-Id with the merchant's key), naming user A's order, file or reservation. */
  | 'otherUser'
  /** A valid token of the user without the scope the route needs (an `auth`-only token). */
  | 'noScope';

export const cases: readonly Case[] = [
  'none',
  'otherParty',
  'noOwnCredential',
  'otherMerchantKey',
  'otherMerchantsThing',
  'otherUser',
  'noScope',
];

export type Expected = readonly [status: number, code: string];

export interface Probe {
  /** The path asked, when the route's own (its parameters as 1) is not the one. */
  path?: string;
  headers: HeaderSet;
  json?: unknown;
}

export interface InterfaceTable {
  name: string;
  /** The interface's base path: every served route under it belongs to this table. */
  base: string;
  /** Every route of the interface (relative to `base`, as served) and the cases that apply to it. */
  routes: Record<string, readonly Case[]>;
  /** For each case, the refusal the interface answers (its status and code), or by route when it differs. */
  refusals: Partial<Record<Case, Expected | ((route: string) => Expected)>>;
  /** For a case on a route: what is sent (the right credentials but the case's). */
  probe(route: string, kind: Case): Probe;
}

/** Routes no credentials guard on purpose, and why (docs/gateway.md: `gateway: null` is said where declared). */
export const publicRoutes: Record<string, string> = {
  'GET /health': 'liveness, for the orchestrator',
  'GET /ready': 'readiness; its details behind the operator token in production (docs/operations.md)',
  'GET /metrics': 'Prometheus; behind the operator token in production (docs/operations.md)',
  'GET /oauth2/jwks': 'the public keys that verify access tokens: anyone holding a token must check it',
  'GET /sandbox/identity/consent': "the sandbox consent page a user's browser opens (docs/identity.md)",
  'POST /sandbox/identity/consent': "the sandbox consent page's form",
  'GET /sandbox/payments/{transactionId}':
    "the sandbox payment page a payer's browser opens (docs/payments-sandbox.md)",
  'POST /sandbox/payments/{transactionId}': "the sandbox payment page's form",
  'POST /payment-providers/v1/{providerCode}/callbacks': "a provider's callback: its signature is the credential",
  'POST /payment-providers/v1/{providerCode}/refund-callbacks': "a provider's refund callback: its signature",
};

/** The operator API: every route under /operator/v1 takes the operator token (docs/shop-api.md, "Operator API"). */
export const operatorApi = {
  base: '/operator/v1',
  wrongToken: 'not-an-operator-token-0123456789',
  refusal: [401, 'OPS-AUTH-001'] as Expected,
};

export const methodOf = (route: string) => route.split(' ')[0]!;
export const pathOf = (route: string) => route.slice(route.indexOf(' ') + 1);

const env = { env: 'dev' };
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const G = ['none', 'otherParty'] as const;

export function interfaceTables(w: MatrixWorld): InterfaceTable[] {
  /** The headers of `kind` for a gateway-fronted interface, over the right ones given. */
  const gatewayCase = (kind: Case, right: HeaderSet, outsider: HeaderSet = w.otherParty): HeaderSet => {
    if (kind === 'none') return {};
    if (kind === 'otherParty') return { ...right, client_id: undefined, client_secret: undefined, ...outsider };
    return right;
  };

  const shopHeaders = (): HeaderSet => ({
    ...gatewayHeaders(),
    'X-Promotion-Api-Key': w.merchantA.apiKey,
    'X-Merchant-Id': w.merchantA.merchantId,
    'X-User-Id': 'matrix-shopper',
    'X-Request-Id': randomUUID(),
    'X-Idempotency-Key': randomUUID(),
  });

  const checkoutAs = (merchant: ShopMerchant) => new CheckoutCaller(w.app.baseUrl, merchant, w.checkout.userA);
  const someOrders = () => [order('M001', [line('i1', 2, 75_000)])];
  /** Merchant B naming merchant A's reservation (confirm, release, refund, get) or promotion (preview, reserve). */
  const othersThing = (path: string): unknown => {
    const pick = { promotion_id: w.checkout.promotionId, code_type: 'UNIQUE' };
    if (path === '/preview-discount') return { selected_promotions: [pick], orders: someOrders() };
    if (path === '/reserve') return { order_id: 'matrix-b', selected_promotions: [pick], orders: someOrders() };
    return { reservation_key: w.checkout.reservationKey, order_id: 'order-1' };
  };

  return [
    {
      name: 'shop (merchant key; docs/shop-api.md)',
      base: '/api/v1',
      routes: Object.fromEntries(
        [
          'GET /vouchers',
          'GET /vouchers/{id}',
          'GET /vouchers/search',
          'GET /campaigns/carousel',
          'GET /campaigns',
          'GET /campaigns/{id}',
          'POST /vouchers/reserve',
        ]
          .map((r): [string, readonly Case[]] => [r, [...G, 'noOwnCredential', 'otherMerchantKey']])
          .concat(
            // A reservation is its user's at its merchant (docs/shop-purchase.md).
            ['POST /vouchers/commit', 'POST /vouchers/release', 'GET /vouchers/reservation/{key}'].map((r) => [
              r,
              [...G, 'noOwnCredential', 'otherMerchantKey', 'otherUser', 'otherMerchantsThing'],
            ]),
          ),
      ),
      refusals: {
        none: [401, 'SHOP-AUTH-001'],
        otherParty: [403, 'SHOP-AUTH-006'],
        noOwnCredential: [401, 'SHOP-AUTH-002'],
        otherMerchantKey: [403, 'SHOP-AUTH-004'],
        otherUser: [404, 'SHOP-PUR-003'],
        otherMerchantsThing: [404, 'SHOP-PUR-003'],
      },
      probe: (route, kind) => {
        const key = w.shop.reservationKey;
        if (kind === 'otherUser' || kind === 'otherMerchantsThing') {
          const stranger =
            kind === 'otherUser'
              ? new Shopper(w.app.baseUrl, w.merchantA, 'matrix-stranger')
              : new Shopper(w.app.baseUrl, w.merchantB, w.shop.buyer);
          return route.startsWith('GET')
            ? { path: `/api/v1/vouchers/reservation/${key}`, headers: stranger.headers() }
            : { headers: stranger.headers(), json: { reservationKey: key } };
        }
        const right = shopHeaders();
        const json = methodOf(route) === 'POST' ? {} : undefined;
        if (kind === 'noOwnCredential') return { headers: { ...right, 'X-Promotion-Api-Key': undefined }, json };
        if (kind === 'otherMerchantKey')
          return { headers: { ...right, 'X-Promotion-Api-Key': w.merchantB.apiKey }, json };
        return { headers: gatewayCase(kind, right), json };
      },
    },
    {
      name: 'checkout (merchant key; docs/checkout.md)',
      base: '/loyalty/v1/promotion',
      routes: {
        // applicable answers B's own view of the wallet: there is nothing of A's to refuse (tested apart:
        // tests/api/checkout/checkout-merchants.test.ts, "applicable never lists another merchant's promotion").
        'POST /applicable': [...G, 'noOwnCredential', 'otherMerchantKey'],
        'POST /preview-discount': [...G, 'noOwnCredential', 'otherMerchantKey', 'otherMerchantsThing'],
        'POST /reserve': [...G, 'noOwnCredential', 'otherMerchantKey', 'otherMerchantsThing'],
        'POST /confirm': [...G, 'noOwnCredential', 'otherMerchantKey', 'otherMerchantsThing'],
        'POST /release': [...G, 'noOwnCredential', 'otherMerchantKey', 'otherMerchantsThing'],
        'POST /get-reservation': [...G, 'noOwnCredential', 'otherMerchantKey', 'otherMerchantsThing'],
        'POST /refund': [...G, 'noOwnCredential', 'otherMerchantKey', 'otherMerchantsThing'],
      },
      refusals: {
        none: [401, '8401'],
        otherParty: [403, '8403'],
        noOwnCredential: [401, '8401'],
        otherMerchantKey: [403, '8403'],
        // Another merchant's promotion is not found (8003), its reservation neither (8010): docs/checkout.md.
        otherMerchantsThing: (route) =>
          ['/preview-discount', '/reserve'].includes(pathOf(route)) ? [404, '8003'] : [404, '8010'],
      },
      probe: (route, kind) => {
        const path = pathOf(route);
        const right = { ...checkoutAs(w.merchantA).headers(), 'X-Idempotency-Key': randomUUID() };
        if (kind === 'otherMerchantsThing')
          return {
            headers: { ...checkoutAs(w.merchantB).headers(), 'X-Idempotency-Key': randomUUID() },
            json: othersThing(path),
          };
        const json = othersThing(path);
        if (kind === 'noOwnCredential') return { headers: { ...right, 'X-Promotion-API-Key': undefined }, json };
        if (kind === 'otherMerchantKey')
          return { headers: { ...right, 'X-Promotion-API-Key': w.merchantB.apiKey }, json };
        return { headers: gatewayCase(kind, right), json };
      },
    },
    {
      name: 'payment hub (payment API key; docs/payments.md)',
      base: '/api/payments/v1',
      routes: Object.fromEntries(
        [
          'GET /payment-methods',
          'GET /payment-sessions',
          'POST /payment-sessions',
          'PUT /payment-sessions/cancel',
          'POST /refunds/snapshot',
          'POST /transactions',
          'POST /transactions/refund',
          'POST /transactions/snapshot',
          'GET /user-payment-methods',
          'PUT /user-payment-methods/remove',
        ]
          .map((r): [string, readonly Case[]] => [r, [...G, 'noOwnCredential']])
          .concat(
            // A transaction is its merchant's terminal's (docs/payments.md): P2's valid key naming P1's is 403 4200.
            ['GET /transactions', 'PUT /transactions/cancel', 'PUT /transactions/confirm'].map((r) => [
              r,
              [...G, 'noOwnCredential', 'otherMerchantsThing'],
            ]),
          ),
      ),
      refusals: {
        none: [401, '4105'],
        otherParty: [403, '4201'],
        noOwnCredential: [401, '4101'],
        otherMerchantsThing: [403, '4200'],
      },
      probe: (route, kind) => {
        if (kind === 'otherMerchantsThing') {
          const { transactionId, p2 } = w.payments;
          const ts = String(Math.floor(Date.now() / 1000));
          const headers = hubHeaders(p2.keys.T1!.paymentApiKey, ts);
          if (methodOf(route) === 'GET')
            return { path: `/api/payments/v1/transactions?transactionId=${transactionId}`, headers };
          return {
            headers,
            json: { transactionId, secureHash: hmacSha256Hex(p2.secretKey, `${transactionId}|${ts}`) },
          };
        }
        const right = { ...gatewayHeaders(), ...env, 'X-Request-Id': randomUUID() };
        return { headers: gatewayCase(kind, right), json: methodOf(route) === 'GET' ? undefined : {} };
      },
    },
    {
      name: 'order view webhooks (order X-API-Key and secure_hash; docs/orders-signing.md)',
      base: '/order/cov/webhook/v1',
      routes: Object.fromEntries(
        ['POST /orders/created', 'POST /orders/updated', 'POST /orders/cancelled'].map((r) => [
          r,
          [...G, 'noOwnCredential'],
        ]),
      ),
      refusals: { none: [401, '4110'], otherParty: [403, '4201'], noOwnCredential: [401, '4010'] },
      probe: (_route, kind) => {
        const right = { ...gatewayHeaders(), 'X-Request-Id': randomUUID() };
        const body = createdBody(randomUUID().slice(0, 8));
        return { headers: gatewayCase(kind, right), json: { secure_hash: '0'.repeat(64), ...body } };
      },
    },
    {
      name: "order view, the customer's queries (bearer token with profile; docs/orders.md)",
      base: '/order/cov/app/v1',
      routes: {
        // The listing is the token's user's own: another user's token lists its own (nothing of A's to refuse).
        'GET /orders': [...G, 'noOwnCredential', 'noScope'],
        'GET /orders/{merchantId}/{orderId}': [...G, 'noOwnCredential', 'noScope', 'otherUser'],
      },
      refusals: {
        none: [401, '4110'],
        otherParty: [403, '4201'],
        noOwnCredential: [401, '4101'],
        noScope: [403, '4203'],
        otherUser: [404, '4301'],
      },
      probe: (route, kind) => {
        const own = `/order/cov/app/v1/orders/${w.orders.merchant}/${w.orders.orderId}`;
        const path = route.endsWith('{orderId}') ? own : undefined;
        const right = { ...gatewayHeaders(), ...bearer(w.orders.tokenA) };
        if (kind === 'noOwnCredential') return { path, headers: gatewayHeaders() };
        if (kind === 'noScope') return { path, headers: { ...gatewayHeaders(), ...bearer(w.orders.authOnlyA) } };
        if (kind === 'otherUser') return { path, headers: { ...gatewayHeaders(), ...bearer(w.orders.tokenB) } };
        return { path, headers: gatewayCase(kind, right) };
      },
    },
    {
      name: 'token exchange and revocation (mini-app client authentication; docs/identity.md)',
      base: '/oauth2/token',
      routes: { 'POST /exchange': [...G, 'noOwnCredential'], 'POST /revoke': [...G, 'noOwnCredential'] },
      refusals: {
        none: [401, 'invalid_client'],
        otherParty: [403, 'access_denied'],
        noOwnCredential: [401, 'invalid_client'],
      },
      probe: (route, kind) => {
        const json = route.endsWith('exchange') ? { grant_type: 'authorization_code', code: 'x' } : { token: 'x' };
        return { headers: gatewayCase(kind, gatewayHeaders()), json };
      },
    },
    {
      name: 'user info (bearer token with profile; docs/identity.md)',
      base: '/open/identity/v1',
      routes: { 'GET /userinfo': [...G, 'noOwnCredential', 'noScope'] },
      refusals: {
        none: [401, '4101'],
        otherParty: [403, '4200'],
        noOwnCredential: [401, '4110'],
        noScope: [403, '4201'],
      },
      probe: (_route, kind) => {
        if (kind === 'noOwnCredential') return { headers: gatewayHeaders() };
        if (kind === 'noScope') return { headers: { ...gatewayHeaders(), ...bearer(w.orders.authOnlyA) } };
        return { headers: gatewayCase(kind, { ...gatewayHeaders(), ...bearer(w.orders.tokenA) }) };
      },
    },
    {
      name: 'files (bearer token; docs/files.md)',
      base: '/open/files/v1',
      routes: {
        'POST /files': [...G, 'noOwnCredential'],
        // A file is its uploader's (in its mini-app): another user's token is answered as if it did not exist.
        'GET /files/{fileId}': [...G, 'noOwnCredential', 'otherUser'],
        'GET /files/{fileId}/content': [...G, 'noOwnCredential', 'otherUser'],
      },
      refusals: {
        none: [401, '4110'],
        otherParty: [403, '4201'],
        noOwnCredential: [401, '4101'],
        otherUser: [404, '4301'],
      },
      probe: (route, kind) => {
        if (kind === 'otherUser')
          return {
            path: `/open/files/v1${pathOf(route).replace('{fileId}', w.files.fileId)}`,
            headers: { ...gatewayHeaders(), ...bearer(w.orders.tokenB) },
          };
        if (kind === 'noOwnCredential') return { headers: gatewayHeaders() };
        // The files interface is what `otherParty` is granted: its outsider is a party granted only the shop.
        return { headers: gatewayCase(kind, { ...gatewayHeaders(), ...bearer(w.orders.tokenA) }, w.filesOutsider) };
      },
    },
  ];
}
