/**
 * Who may read the customer app's order view, and which of the customer's fields it shows (docs/orders.md, "The
 * customer's consent"): the one rule of the customer queries, applied by their one guard (api/orders/customer-auth.ts)
 * and by the queries (order-queries.ts), which answer only what the access it decides allows.
 *
 * The seed's README (contradiction 7): whatever token the view takes, the fields a user consents to share are only
 * returned with that consent, as user info requires. User info requires `profile` (an `auth`-only token, which the
 * user gave without any consent screen, is refused); the orders are the user's history and at least as personal as
 * the profile, so the same holds here: `profile` granted and still consented to for the token's mini-app, and
 * `customer.phone` / `customer.email` only with `phone` / `email` granted and still consented to. A token of the host
 * app itself (its audience in ORDERS_HOST_APP_AUDIENCES: the seed's "customer app" is the host app's "my orders",
 * whose data the host app holds already) needs no consent and sees every field.
 */
import type { OrderCustomer } from '../../domain/orders/index.js';
import type { AccessTokenClaims } from '../shared/access-tokens.js';
import type { ConsentLookup } from '../shared/consents.js';

export interface CustomerAccess {
  /** The token's user: only orders whose customer.customer_id it is. */
  customerId: string;
  /** Which consent-gated customer fields the answers may carry. */
  shows: { phone: boolean; email: boolean };
}

export type CustomerAccessRefusal =
  /** The token does not carry `profile` (an `auth`-only token). */
  | 'SCOPE_MISSING'
  /** The user withdrew consent to `profile` for the token's mini-app since it was issued. */
  | 'CONSENT_WITHDRAWN';

export type CustomerAccessCheck = { ok: true; access: CustomerAccess } | { ok: false; reason: CustomerAccessRefusal };

export class CustomerAccessPolicy {
  private readonly hostApp: ReadonlySet<string>;

  constructor(
    private readonly deps: {
      /** The identity context's consent lookup (a port: read while serving, never while building). */
      consents: () => ConsentLookup;
      /** Token audiences (mini-app ids) that are the host app's own: no consent needed. */
      hostAppAudiences: readonly string[];
    },
  ) {
    this.hostApp = new Set(deps.hostAppAudiences);
  }

  async check(claims: Pick<AccessTokenClaims, 'userId' | 'miniAppId' | 'scopes'>): Promise<CustomerAccessCheck> {
    const customerId = claims.userId;
    if (this.hostApp.has(claims.miniAppId))
      return { ok: true, access: { customerId, shows: { phone: true, email: true } } };
    if (!claims.scopes.includes('profile')) return { ok: false, reason: 'SCOPE_MISSING' };
    const consent = await this.deps.consents().scopes(claims.userId, claims.miniAppId);
    if (!consent.includes('profile')) return { ok: false, reason: 'CONSENT_WITHDRAWN' };
    const allowed = (scope: 'phone' | 'email') => claims.scopes.includes(scope) && consent.includes(scope);
    return { ok: true, access: { customerId, shows: { phone: allowed('phone'), email: allowed('email') } } };
  }
}

/** The customer as `access` may see it: phone and e-mail left out unless allowed. */
export function customerAsShown(customer: OrderCustomer, access: CustomerAccess): OrderCustomer {
  const { phone, email, ...rest } = customer;
  return {
    ...rest,
    ...(access.shows.phone && phone !== undefined && { phone }),
    ...(access.shows.email && email !== undefined && { email }),
  };
}
