/**
 * The order view's application layer, as the API and the composition root see it: its services and their views.
 * Import this file from outside application/orders (docs/conventions.md, "Modules").
 */
export * from './merchant-keys.js';
export * from './order-webhooks.js';
export * from './secure-hash.js';
export * from './webhook-keys.js';

import type { OrderMerchantKeys } from './merchant-keys.js';
import type { OrderWebhooks } from './order-webhooks.js';
import type { WebhookKeys } from './webhook-keys.js';

/** The order view's services, as its module builds them (infrastructure/orders) and its API uses them (api/orders). */
export interface OrdersServices {
  merchants: OrderMerchantKeys;
  webhookKeys: WebhookKeys;
  webhooks: OrderWebhooks;
  /** Largest webhook body the interface reads, in bytes. */
  webhookMaxBytes: number;
}

// The domain's vocabulary the interfaces need reaches them through this file: api/ imports application/ only.
export * from '../../domain/orders/index.js';
