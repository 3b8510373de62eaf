/** The promotion checkout's settings: its slice of the service's configuration (README, "Configuration"). */
import { z } from 'zod';

export const checkoutConfig = {
  /**
   * Spec contradiction 3 (docs/checkout.md, "Time-to-live"): empty (the default) keeps a checkout reservation until
   * confirm or release, as the spec's lifecycle says; a number of seconds makes it expire then (confirm answers 8011
   * and the promotion returns to the wallet).
   */
  CHECKOUT_RESERVATION_TTL_SECONDS: z
    .string()
    .default('')
    .transform((s, ctx) => {
      if (s.trim() === '') return null;
      const n = Number(s);
      if (!Number.isInteger(n) || n < 1 || n > 30 * 24 * 3600) {
        ctx.addIssue({ code: 'custom', message: 'must be empty or whole seconds from 1 to 2592000 (30 days)' });
        return z.NEVER;
      }
      return n;
    }),
};

export type CheckoutConfig = z.infer<z.ZodObject<typeof checkoutConfig>>;
