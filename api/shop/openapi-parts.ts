/**
 * Parts every shop route's OpenAPI spec shares (the route tables catalog-routes.ts and purchase-routes.ts): the
 * credentials, the refusals any shop call can get, and its error responses in the shop's envelope.
 */
import { errorResponses, type ErrorCase } from '../shared/openapi.js';
import { shopErrorTable, type ShopInterfaceErrorCode } from './error-mapping.js';
import { shopFailure } from './schemas.js';

export const shopSecurity = [{ clientId: [], clientSecret: [], promotionApiKey: [], merchantId: [] }];

/** What the gateway (gateway-front.ts), auth.ts and the error handler can answer to any shop call. */
export const shopCallErrors: ErrorCase[] = [
  [
    400,
    'SHOP-REQ-001',
    'a missing or invalid header (X-Request-Id, X-User-Id), field or path value (the message names it)',
  ],
  [401, 'SHOP-AUTH-001', '`client_id`/`client_secret` missing, wrong, revoked or not issued for this environment'],
  [401, 'SHOP-AUTH-002', '`X-Promotion-Api-Key` missing, unknown, revoked or expired (the message says which)'],
  [401, 'SHOP-AUTH-003', '`X-Merchant-Id` missing'],
  [403, 'SHOP-AUTH-004', 'the key is valid but belongs to another merchant'],
  [403, 'SHOP-AUTH-005', 'the `env` header (optional) names another environment than this deployment'],
  [403, 'SHOP-AUTH-006', "the client's party is not granted the shop interface"],
  [403, 'SHOP-AUTH-007', "the caller's address is not on its party's IP allowlist"],
  [
    429,
    'SHOP-REQ-429',
    "the party's rate limit for this endpoint is reached; `Retry-After` says in how many seconds to retry",
  ],
  [500, 'SHOP-SYS-500', 'an unexpected failure; safe to retry with the same `X-Idempotency-Key`'],
];

/** What a shop call with a JSON body can also get. */
export const shopBodyErrors: ErrorCase[] = [
  [400, 'SHOP-REQ-001', 'the body is not valid JSON'],
  [413, 'SHOP-REQ-413', 'body larger than 64 kB'],
  [415, 'SHOP-REQ-415', '`Content-Type` is not `application/json`, or the body is not UTF-8'],
];

/** A typed domain refusal as the shop answers it: status and code from the interface's error table. */
export const domainCase = (code: ShopInterfaceErrorCode, when: string): ErrorCase => [...shopErrorTable[code], when];

export const shopErrorResponses = (...cases: ErrorCase[]) =>
  errorResponses(cases, (_status, codes) => shopFailure(codes));
