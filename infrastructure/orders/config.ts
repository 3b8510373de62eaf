/** The order view's settings: its slice of the service's configuration (README, "Configuration"; docs/orders.md). */
import { z } from 'zod';
import { commaList } from '../shared/comma-list.js';

const count = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const ordersConfig = {
  /** Which merchant keys this deployment takes: `live` (production) or `test` (staging, UAT); unset: by NODE_ENV. */
  ORDERS_KEY_ENVIRONMENT: z.enum(['live', 'test']).optional(),
  /** How long a rotated key keeps working next to its successor, in hours. */
  ORDERS_KEY_ROTATION_OVERLAP_HOURS: count(0, 24 * 90, 24),
  /** How long an updated or cancelled that came before its created waits for it, in hours. */
  ORDERS_EARLY_EVENT_WINDOW_HOURS: count(1, 24 * 90, 72),
  /** How many such early events one order may hold. */
  ORDERS_MAX_EARLY_EVENTS: count(1, 10_000, 100),
  /**
   * event_timestamp may lie at most this many hours in the past (late deliveries and retries; the early window's 72 h,
   * docs/orders-signing.md, "The time window")...
   */
  ORDERS_EVENT_MAX_AGE_HOURS: count(1, 24 * 365, 72),
  /** ...and this many seconds ahead of this service's clock (senders' clock skew). */
  ORDERS_EVENT_MAX_FUTURE_SECONDS: count(0, 86_400, 300),
  /**
   * Listings count their matches exactly up to this many; beyond it the counts come from the daily statistics when the
   * filter allows, else the answer says "more than this" (docs/orders-read-models.md, "Counts at scale").
   */
  ORDERS_LIST_COUNT_LIMIT: count(100, 1_000_000, 10_000),
  /**
   * Access-token audiences (mini-app ids, comma separated) that are the host app's own: their tokens read the customer
   * queries with every customer field and without the user's consent (docs/orders.md, "The customer's consent").
   * Empty (default): every token needs `profile`, and phone and e-mail their own consent.
   */
  ORDERS_HOST_APP_AUDIENCES: commaList(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'each entry is a mini-app id'),
  ).default(''),
  /**
   * Largest webhook body, in bytes (inflated). 256 KiB: an order the count budget takes (5,000 members,
   * api/orders/webhook-router.ts) with long texts fits; past it only strings grow, which cost time all the same
   * (docs/conventions.md, "Request bodies").
   */
  ORDERS_WEBHOOK_MAX_BYTES: count(1024, 16 * 1024 * 1024, 256 * 1024),
};

export type OrdersConfig = z.infer<z.ZodObject<typeof ordersConfig>>;
