/** The promotion checkout's settings: its slice of the service's configuration (none yet; README, "Configuration"). */
import type { z } from 'zod';

export const checkoutConfig = {};

export type CheckoutConfig = z.infer<z.ZodObject<typeof checkoutConfig>>;
