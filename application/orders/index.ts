/**
 * The order view's application layer, as the API and the composition root see it: its services and their views.
 * Import this file from outside application/orders (docs/conventions.md, "Modules").
 */
export * from './customer-access.js';
export * from './merchant-keys.js';
export * from './order-queries.js';
export * from './order-webhooks.js';
export * from './secure-hash.js';
export * from './webhook-keys.js';

import type { CustomerAccessPolicy } from './customer-access.js';
import type { OrderMerchantKeys } from './merchant-keys.js';
import type { OrderQueries } from './order-queries.js';
import type { OrderWebhooks } from './order-webhooks.js';
import type { AccessTokenVerifier } from '../shared/access-tokens.js';
import type { WebhookKeys } from './webhook-keys.js';

/** The order view's services, as its module builds them (infrastructure/orders) and its API uses them (api/orders). */
export interface OrdersServices {
  merchants: OrderMerchantKeys;
  webhookKeys: WebhookKeys;
  webhooks: OrderWebhooks;
  /** The customer app's and the portal's reads (projections: eventually consistent). */
  queries: OrderQueries;
  /** Checks the customer's access token (the identity context's verifier). */
  accessTokens: AccessTokenVerifier;
  /** What a valid token may read of the customer queries (its scopes and the user's consent). */
  customerAccess: CustomerAccessPolicy;
  /** Largest webhook body the interface reads, in bytes. */
  webhookMaxBytes: number;
}

// The domain's vocabulary the interfaces need reaches them through this file: api/ imports application/ only.
export * from '../../domain/orders/index.js';
