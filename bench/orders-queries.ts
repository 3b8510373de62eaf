/**
 * bench:orders' queries (docs/orders-read-models.md, "Benchmark"): customers' access tokens from the identity
 * context's real login flow (operator endpoints, then the OAuth code exchange behind the gateway), and the requests of
 * the customer app (my orders, with and without filters) and of the portal (the filters an operator combines).
 */
import { benchGatewayHeaders } from './gateway-party.js';
import {
  branch,
  businessUnit,
  historyCustomer,
  historyMerchant,
  historyStatuses,
  historyTypes,
  type HistoryShape,
} from './orders-history.js';
import type { LoadRequest } from './load.js';

export const benchOperatorToken = 'bench-operator-token-0123456789abcdef';
const operator = { authorization: `Bearer ${benchOperatorToken}` };

async function call(
  base: string,
  path: string,
  init: { headers: Record<string, string>; body: string; form?: boolean; method?: string },
) {
  const res = await fetch(base + path, {
    method: init.method ?? 'POST',
    headers: { 'content-type': init.form ? 'application/x-www-form-urlencoded' : 'application/json', ...init.headers },
    body: init.body,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as { data?: Record<string, string>; access_token?: string };
}

/** An access token for each of `users`, through the login flow (user and mini-app registered, a code exchanged). */
export async function customerTokens(base: string, users: string[]): Promise<Map<string, string>> {
  const miniApp = await call(base, '/operator/v1/identity/mini-apps', {
    headers: operator,
    body: JSON.stringify({ miniapp_id: 'bench-orders-app', name: 'Bench orders', redirect_uris: [] }),
  });
  const basic = `Basic ${Buffer.from(`bench-orders-app:${miniApp.data!.client_secret}`).toString('base64')}`;
  const tokens = new Map<string, string>();
  for (const user of users) {
    await call(base, '/operator/v1/identity/users', {
      headers: operator,
      body: JSON.stringify({ user_id: user, name: `User ${user}`, phone_number: '0901112233' }),
    });
    // The customer queries need `profile`, consented to for the mini-app (docs/orders.md, "The customer's consent").
    await call(base, `/operator/v1/identity/users/${user}/consents/bench-orders-app`, {
      method: 'PUT',
      headers: operator,
      body: JSON.stringify({ scopes: ['profile'] }),
    });
    const code = await call(base, '/operator/v1/identity/auth-codes', {
      headers: operator,
      body: JSON.stringify({ user_id: user, miniapp_id: 'bench-orders-app', scopes: ['profile'] }),
    });
    const exchanged = await call(base, '/oauth2/token/exchange', {
      headers: { ...benchGatewayHeaders, authorization: basic },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code.data!.code! }).toString(),
      form: true,
    });
    tokens.set(user, exchanged.access_token!);
  }
  return tokens;
}

/** The customers whose tokens the queries use: spread over the history's customers. */
export function sampledCustomers(shape: HistoryShape, count: number): string[] {
  const customers = Math.max(1, Math.round(shape.orders / shape.ordersPerCustomer));
  return Array.from({ length: Math.min(count, customers) }, (_, i) =>
    historyCustomer(Math.floor((i * customers) / count)),
  );
}

/** `count` my-orders requests: first pages, a third filtered by status, a third by order type. */
export function myOrdersRequests(tokens: Map<string, string>, count: number): LoadRequest[] {
  const users = [...tokens.keys()];
  return Array.from({ length: count }, (_, i) => {
    const filter =
      i % 3 === 1
        ? `&status=${historyStatuses[i % historyStatuses.length]}`
        : i % 3 === 2
          ? `&order_type=${historyTypes[i % historyTypes.length]}`
          : '';
    return {
      method: 'GET',
      path: `/order/cov/app/v1/orders?size=20${filter}`,
      headers: { ...benchGatewayHeaders, authorization: `Bearer ${tokens.get(users[i % users.length]!)}` },
    };
  });
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The portal's filters, in turn: one page of 50 with its counts each. */
export function portalFilters(shape: HistoryShape, i: number): string {
  const m = i % shape.merchants;
  // A whole UTC day, as the portal's date picker sends it.
  const day = (Math.floor(shape.now / 86_400_000) - 1 - (i % (shape.days - 1))) * 86_400_000;
  const filters = [
    { merchant_id: historyMerchant(m) },
    { merchant_id: historyMerchant(m), status: historyStatuses[i % historyStatuses.length] },
    { business_unit_id: businessUnit(m, i % 3), from: iso(day - 7 * 86_400_000), to: iso(day) },
    { branch_id: branch(m, i % 3, i % 10) },
    { seller_merchant_id: `SELLER-${i % 200}` },
    {
      order_type: historyTypes[i % historyTypes.length],
      status: 'COMPLETED',
      from: iso(day),
      to: iso(day + 86_400_000),
    },
    { merchant_id: historyMerchant(m), payment_status: 'REFUNDED' },
    { from: iso(day), to: iso(day + 86_400_000) },
    { customer_id: historyCustomer(i * 7) },
    {},
  ];
  const f = filters[i % filters.length]!;
  return new URLSearchParams({ ...(f as Record<string, string>), size: '50' }).toString();
}

export function portalRequests(shape: HistoryShape, count: number): LoadRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    method: 'GET',
    path: `/operator/v1/orders?${portalFilters(shape, i)}`,
    headers: operator,
  }));
}
