/**
 * The authorization matrix (issue 29; docs/gateway.md and each interface's doc): every route the app serves, read from
 * the router (the route tables api/<ctx>/*-routes.ts mount), × the credentials that must not reach it: none, another
 * gateway party's, another merchant's key, another user's token, a token without the scope. Each answer is a refusal
 * in the interface's own envelope and code, and appends nothing to the event store.
 *
 * Each interface says below which credentials its routes take and which cases apply to each route. A served route no
 * table names fails the test (so a new route is put in the matrix when it is added), as does a table naming a route
 * that is not served. The whole app runs on real PostgreSQL, with real credentials (tests/support/gateway.ts,
 * access-tokens.ts, the checkout's and the order view's test helpers).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { newCommandContext } from '../../application/shared/command-context.js';
import { issueTestAccessToken } from '../support/access-tokens.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { gatewayHeaders } from '../support/gateway.js';
import { servedRoutes } from '../support/served-routes.js';
import { CheckoutCaller, checkoutOk, checkoutScene, line, listed, order } from './checkout/checkout-support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook } from './orders/support.js';
import { call, type HeaderSet, type ShopMerchant } from './support.js';

/** The credentials a case presents instead of the right ones. */
type Case =
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
  /** User B's valid token, naming user A's order. */
  | 'otherUser'
  /** A valid token of the user without the scope the route needs (an `auth`-only token). */
  | 'noScope'
  /** An operator token that is not one. */
  | 'wrongOperatorToken';

type Expected = readonly [status: number, code: string];

interface Probe {
  path?: string;
  headers: HeaderSet;
  json?: unknown;
}

interface InterfaceTable {
  name: string;
  /** The interface's base path: every served route under it belongs to this table. */
  base: string;
  /** Every route of the interface (relative to `base`, as served) and the cases that apply to it. */
  routes: Record<string, readonly Case[]>;
  /** For each case, the refusal the interface answers (its status and code). */
  refusals: Partial<Record<Case, Expected>>;
  /** For a case on a route: what is sent (the right credentials but the case's). */
  probe(route: string, kind: Case): Probe;
}

/** Routes no credentials guard on purpose, and why (docs/gateway.md: `gateway: null` is said where declared). */
const publicRoutes: Record<string, string> = {
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

/** A path with each `{param}` filled with a value every pattern takes. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, '1');
const methodOf = (route: string) => route.split(' ')[0]!;
const pathOf = (route: string) => route.slice(route.indexOf(' ') + 1);

describe('Authorization matrix: every served route × credentials that must not reach it', function () {
  this.timeout(120_000);
  let app: TestApp;
  /** Another party's gateway pair: granted only `files` (and, for the files interface, one granted only `shop`). */
  const otherParty = { client_id: 'matrix-other', client_secret: 'matrix-other-secret-0123456789abcdef' };
  const filesOutsider = { client_id: 'matrix-shop-only', client_secret: 'matrix-shop-only-secret-0123456789abc' };
  let merchantA: ShopMerchant;
  let merchantB: ShopMerchant;
  /** A reservation and a promotion of merchant A (user `userA`), for merchant B to name. */
  const checkoutFixture = { reservationKey: '', promotionId: 0, userA: 'matrix-user-a' };
  /** User A's order in the order view, and tokens: A's with profile, B's with profile, A's auth-only. */
  const orderFixture = { merchant: 'MATRIX_ORD', orderId: 'matrix-o1', tokenA: '', tokenB: '', authOnlyA: '' };

  before(async () => {
    app = await startTestApp();
    const { parties } = app.container.services.gateway;
    const environment = app.container.services.gateway.check.environment;
    const asTests = () => newCommandContext({ actor: { operator: 'tests' } });
    for (const [partyId, pair, interfaces] of [
      ['matrix-other', otherParty, ['files']],
      ['matrix-shop-only', filesOutsider, ['shop']],
    ] as const) {
      await parties.register(asTests(), partyId, {
        name: partyId,
        kind: 'INTERNAL',
        interfaces: [...interfaces],
        ipAllowlist: [],
        rateLimits: [],
      });
      await parties.issueCredential(asTests(), partyId, {
        environments: [environment],
        clientId: pair.client_id,
        clientSecret: pair.client_secret,
      });
    }

    // Checkout: merchant A (M001) reserves its own promotion for userA; B is another merchant with a valid key.
    const scene = await checkoutScene(app);
    merchantA = scene.merchant;
    merchantB = await scene.operator.createMerchant({ merchantId: 'MATRIX_B' });
    const a = scene.caller(checkoutFixture.userA);
    const [reserved, held] = await scene.issue(await scene.master(), [a.userId, a.userId]);
    const orders = [order('M001', [line('i1', 2, 75_000)])];
    await listed(a, held!.promotion_id, orders);
    checkoutFixture.reservationKey = checkoutOk(await a.reserve(reserved!.promotion_id, orders)).reservation_key;
    checkoutFixture.promotionId = held!.promotion_id;

    // Order view: user A's order, visible to A (so that B's 404 is about ownership, not the read model's lag).
    const keys = await merchantWithKey(app, orderFixture.merchant);
    const customer = { customer_id: 'matrix-cust-a', name: 'A', phone: '0901234567', email: 'a@example.vn' };
    expectOrders(
      await sendWebhook(app, 'created', createdBody(orderFixture.orderId, {}, { customer }), { keys }),
      200,
      0,
    );
    orderFixture.tokenA = await issueTestAccessToken(app, { userId: 'matrix-cust-a', scopes: ['profile'] });
    orderFixture.tokenB = await issueTestAccessToken(app, { userId: 'matrix-cust-b', scopes: ['profile'] });
    orderFixture.authOnlyA = await issueTestAccessToken(app, { userId: 'matrix-cust-a', scopes: ['auth'] });
    await eventually(async () => {
      const own = await call(app.baseUrl, 'GET', `/order/cov/app/v1/orders/${orderFixture.merchant}/matrix-o1`, {
        headers: { ...gatewayHeaders(), Authorization: `Bearer ${orderFixture.tokenA}` },
      });
      expect(own.status, own.text).to.equal(200);
    });
  });
  after(() => app?.stop());

  const env = { env: 'dev' };
  /** The headers of `kind` for a gateway-fronted interface, over the right ones given. */
  const gatewayCase = (kind: Case, right: HeaderSet, outsider: HeaderSet = otherParty): HeaderSet => {
    if (kind === 'none') return {};
    if (kind === 'otherParty') return { ...right, client_id: undefined, client_secret: undefined, ...outsider };
    return right;
  };

  const shopHeaders = (): HeaderSet => ({
    ...gatewayHeaders(),
    'X-Promotion-Api-Key': merchantA.apiKey,
    'X-Merchant-Id': merchantA.merchantId,
    'X-User-Id': 'matrix-shopper',
    'X-Request-Id': randomUUID(),
    'X-Idempotency-Key': randomUUID(),
  });

  const checkoutAs = (merchant: ShopMerchant) => new CheckoutCaller(app.baseUrl, merchant, checkoutFixture.userA);
  const someOrders = () => [order('M001', [line('i1', 2, 75_000)])];
  /** Merchant B naming merchant A's reservation (confirm, release, refund, get) or promotion (preview, reserve). */
  const othersThing = (path: string): unknown => {
    const pick = { promotion_id: checkoutFixture.promotionId, code_type: 'UNIQUE' };
    if (path === '/preview-discount') return { selected_promotions: [pick], orders: someOrders() };
    if (path === '/reserve') return { order_id: 'matrix-b', selected_promotions: [pick], orders: someOrders() };
    return { reservation_key: checkoutFixture.reservationKey, order_id: 'order-1' };
  };

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const G = ['none', 'otherParty'] as const;

  const tables: InterfaceTable[] = [
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
          'POST /vouchers/commit',
          'POST /vouchers/release',
          'GET /vouchers/reservation/{key}',
        ].map((r) => [r, [...G, 'noOwnCredential', 'otherMerchantKey']]),
      ),
      refusals: {
        none: [401, 'SHOP-AUTH-001'],
        otherParty: [403, 'SHOP-AUTH-006'],
        noOwnCredential: [401, 'SHOP-AUTH-002'],
        otherMerchantKey: [403, 'SHOP-AUTH-004'],
      },
      probe: (route, kind) => {
        const right = shopHeaders();
        const json = methodOf(route) === 'POST' ? {} : undefined;
        if (kind === 'noOwnCredential') return { headers: { ...right, 'X-Promotion-Api-Key': undefined }, json };
        if (kind === 'otherMerchantKey')
          return { headers: { ...right, 'X-Promotion-Api-Key': merchantB.apiKey }, json };
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
      },
      probe: (route, kind) => {
        const path = pathOf(route);
        const right = { ...checkoutAs(merchantA).headers(), 'X-Idempotency-Key': randomUUID() };
        if (kind === 'otherMerchantsThing')
          return {
            headers: { ...checkoutAs(merchantB).headers(), 'X-Idempotency-Key': randomUUID() },
            json: othersThing(path),
          };
        const json = othersThing(path);
        if (kind === 'noOwnCredential') return { headers: { ...right, 'X-Promotion-API-Key': undefined }, json };
        if (kind === 'otherMerchantKey')
          return { headers: { ...right, 'X-Promotion-API-Key': merchantB.apiKey }, json };
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
          'GET /transactions',
          'POST /transactions',
          'PUT /transactions/cancel',
          'PUT /transactions/confirm',
          'POST /transactions/refund',
          'POST /transactions/snapshot',
          'GET /user-payment-methods',
          'PUT /user-payment-methods/remove',
        ].map((r) => [r, [...G, 'noOwnCredential']]),
      ),
      refusals: { none: [401, '4105'], otherParty: [403, '4201'], noOwnCredential: [401, '4101'] },
      probe: (route, kind) => {
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
        const own = `/order/cov/app/v1/orders/${orderFixture.merchant}/${orderFixture.orderId}`;
        const path = route.endsWith('{orderId}') ? own : undefined;
        const right = { ...gatewayHeaders(), ...bearer(orderFixture.tokenA) };
        if (kind === 'noOwnCredential') return { path, headers: gatewayHeaders() };
        if (kind === 'noScope') return { path, headers: { ...gatewayHeaders(), ...bearer(orderFixture.authOnlyA) } };
        if (kind === 'otherUser') return { path, headers: { ...gatewayHeaders(), ...bearer(orderFixture.tokenB) } };
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
        if (kind === 'noScope') return { headers: { ...gatewayHeaders(), ...bearer(orderFixture.authOnlyA) } };
        return { headers: gatewayCase(kind, { ...gatewayHeaders(), ...bearer(orderFixture.tokenA) }) };
      },
    },
    {
      name: 'files (bearer token; docs/files.md)',
      base: '/open/files/v1',
      routes: {
        'POST /files': [...G, 'noOwnCredential'],
        'GET /files/{fileId}': [...G, 'noOwnCredential'],
        'GET /files/{fileId}/content': [...G, 'noOwnCredential'],
      },
      refusals: { none: [401, '4110'], otherParty: [403, '4201'], noOwnCredential: [401, '4101'] },
      probe: (_route, kind) => {
        if (kind === 'noOwnCredential') return { headers: gatewayHeaders() };
        // The files interface is what `otherParty` is granted: its outsider is a party granted only the shop.
        return { headers: gatewayCase(kind, { ...gatewayHeaders(), ...bearer(orderFixture.tokenA) }, filesOutsider) };
      },
    },
  ];

  /** The operator API: every route under /operator/v1 takes the operator token (docs/shop-api.md, "Operator API"). */
  const operatorTable = {
    base: '/operator/v1',
    refusals: { none: [401, 'OPS-AUTH-001'], wrongOperatorToken: [401, 'OPS-AUTH-001'] } as const,
  };

  const eventCount = async () =>
    Number(((await app.container.knex.raw('SELECT count(*) AS n FROM events')).rows as { n: string }[])[0]!.n);

  /** Sends the probe and checks the refusal and that nothing was appended. */
  async function refused(route: string, kind: Case, probe: Probe, expected: Expected, label: string) {
    const before = await eventCount();
    const res = await call<unknown>(app.baseUrl, methodOf(route), probe.path ?? concrete(pathOf(route)), {
      headers: probe.headers,
      ...(probe.json !== undefined && { json: probe.json }),
    });
    const body = (res.body ?? {}) as { code?: unknown; error?: unknown };
    const code = String(body.code ?? body.error);
    expect([res.status, code], `${label} ${route} × ${kind}: ${res.text.slice(0, 300)}`).to.deep.equal([...expected]);
    expect(await eventCount(), `${label} ${route} × ${kind} appended events`).to.equal(before);
  }

  it('names every served route in exactly one table (a new route must be put in the matrix)', () => {
    const served = servedRoutes(app.container.app).filter((r) => r !== 'GET /openapi.json');
    const named = [
      ...Object.keys(publicRoutes),
      ...tables.flatMap((t) => Object.keys(t.routes).map((r) => `${methodOf(r)} ${t.base}${pathOf(r)}`)),
    ];
    const operator = served.filter((r) => pathOf(r).startsWith(`${operatorTable.base}/`));
    expect(named, 'a route named twice').to.have.length(new Set(named).size);
    expect(served.filter((r) => !operator.includes(r))).to.have.members(named);
    expect(operator.length).to.be.greaterThan(40);
  });

  for (const kind of [
    'none',
    'otherParty',
    'noOwnCredential',
    'otherMerchantKey',
    'otherMerchantsThing',
    'otherUser',
    'noScope',
  ] as const)
    it(`refuses ${kind} on every route it applies to, in the interface's code, appending nothing`, async () => {
      let probed = 0;
      for (const table of tables)
        for (const [route, cases] of Object.entries(table.routes)) {
          if (!cases.includes(kind)) continue;
          const expected =
            table.refusals[kind] ??
            (kind === 'otherMerchantsThing'
              ? pathOf(route) === '/preview-discount' || pathOf(route) === '/reserve'
                ? ([404, '8003'] as const)
                : ([404, '8010'] as const)
              : undefined);
          expect(expected, `${table.name}: no refusal for ${kind}`).to.not.equal(undefined);
          const full = `${methodOf(route)} ${table.base}${pathOf(route)}`;
          await refused(full, kind, table.probe(route, kind), expected!, table.name);
          probed++;
        }
      expect(probed, `no route takes ${kind}`).to.be.greaterThan(0);
    });

  it('refuses every operator route without the operator token, or with a wrong one (401 OPS-AUTH-001)', async () => {
    const operator = servedRoutes(app.container.app).filter((r) => pathOf(r).startsWith(`${operatorTable.base}/`));
    for (const route of operator) {
      const json = ['GET', 'DELETE'].includes(methodOf(route)) ? undefined : {};
      await refused(route, 'none', { headers: {}, json }, operatorTable.refusals.none, 'operator');
      await refused(
        route,
        'wrongOperatorToken',
        { headers: { Authorization: 'Bearer not-an-operator-token-0123456789' }, json },
        operatorTable.refusals.wrongOperatorToken,
        'operator',
      );
    }
  });
});
