/** The voucher shop's settings: its slice of the service's configuration (README, "Configuration"). */
import { z } from 'zod';
import { bool } from '../shared/config.js';

export const shopConfig = {
  /** replay: a resend under a used X-Idempotency-Key with the same body gets the first response. reject: it gets 409 SHOP-PUR-011. */
  SHOP_IDEMPOTENCY_MODE: z.enum(['replay', 'reject']).default('replay'),
  /** Every reservation carries expiresAt = reservedAt + this. */
  SHOP_RESERVATION_TTL_SECONDS: z.coerce.number().int().min(1).default(900),
  /** When true, expired reservations are released automatically and release answers SHOP-PUR-006. */
  SHOP_RESERVATION_AUTO_EXPIRY: bool.default('false'),
  /** Vouchers one reservation may hold over all its lines; more is refused with SHOP-REQ-001. */
  SHOP_MAX_VOUCHERS_PER_RESERVATION: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Offset from UTC of the day boundary for daily purchase limits (Vietnam: +420). */
  SHOP_DAY_UTC_OFFSET_MINUTES: z.coerce.number().int().min(-720).max(840).default(420),
  /** Voucher parts (a pool's, a campaign's) the catalog keeps in memory per API process, about 2 KB each; 0 keeps none. */
  SHOP_CATALOG_CACHED_PARTS: z.coerce.number().int().min(0).default(100_000),
};

export type ShopConfig = z.infer<z.ZodObject<typeof shopConfig>>;
