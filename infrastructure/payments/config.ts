/** The payment hub's settings: its slice of the service's configuration (README, "Configuration"; docs/payments.md). */
import { z } from 'zod';
import { commaList } from '../shared/comma-list.js';
import { bool } from '../shared/config.js';

export const paymentsConfig = {
  /** A signed request's X-Timestamp must be within this many seconds of the hub's clock (either way); else 401 4103. */
  PAYMENTS_TIMESTAMP_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** After a secretKey rotation the previous secretKey still verifies for this long (unless the rotation says otherwise). */
  PAYMENTS_SECRET_OVERLAP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  /** A held payment is cancelled by the hub's sweep this long after the hold began (the seed: default 7 days). */
  PAYMENTS_HOLD_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(7 * 86_400),
  /**
   * Hold timeouts of particular providers, overriding PAYMENTS_HOLD_TIMEOUT_SECONDS: `CODE=seconds,CODE=seconds`
   * (e.g. SANDBOX_WALLET=1296000 for 15 days).
   */
  PAYMENTS_PROVIDER_HOLD_TIMEOUTS: commaList(
    z.string().regex(/^[A-Z0-9_]{1,64}=[1-9][0-9]{0,9}$/, 'each entry is PROVIDER_CODE=seconds'),
  )
    .default('')
    .transform((pairs) => new Map(pairs.map((p) => [p.split('=')[0]!, Number(p.split('=')[1])]))),
  /** The end state of a hold the sweep cancels: CANCELLED (default) or TIMEOUT. */
  PAYMENTS_HOLD_EXPIRY_STATUS: z.enum(['CANCELLED', 'TIMEOUT']).default('CANCELLED'),
  /** A payment with no result this long after init is FAILED (the seed: 4 hours). */
  PAYMENTS_ABANDON_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(4 * 3600),
  /**
   * The sandbox providers and their hosted pages (docs/payments-sandbox.md): a test card completes any payment.
   * Default: on, except with NODE_ENV=production, where SANDBOXES_ALLOWED must name `payments` (a staging deployment).
   */
  PAYMENTS_SANDBOX: bool.optional(),
  /**
   * Origin of the sandbox providers' hosted pages as browsers reach them; default http://localhost:PORT. Required in
   * production when the sandbox runs there (https, not localhost).
   */
  PAYMENTS_SANDBOX_BASE_URL: z.string().url().optional(),
  /**
   * Where the sandbox providers post their callbacks; default the origin the page was requested on (payments), or
   * PAYMENTS_SANDBOX_BASE_URL (refunds, which a reactor sends: no request origin).
   */
  PAYMENTS_SANDBOX_CALLBACK_BASE_URL: z.string().url().optional(),
  /** IPN: how long the hub waits for a partner's answer to one POST (the seed: 15 s); docs/ipn.md. */
  PAYMENTS_IPN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** IPN: the wait before the first retry; each next one doubles (2 s, 4 s, 8 s, …), plus up to 10 % jitter. */
  PAYMENTS_IPN_FIRST_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(2_000),
  /** IPN: no wait between two attempts longer than this (the doubling stops there). */
  PAYMENTS_IPN_MAX_RETRY_WAIT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(3_600),
  /** IPN: POSTs in flight per dispatcher process. */
  PAYMENTS_IPN_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  /** IPN: POSTs in flight per merchant across dispatchers: a slow or dead partner holds no more than these. */
  PAYMENTS_IPN_PER_MERCHANT: z.coerce.number().int().min(1).max(100).default(4),
  /** IPN: how often the dispatcher looks for due notifications (it also looks whenever a send ends). */
  PAYMENTS_IPN_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /**
   * Demo only (`npm start` with the demo seed): the port of the sample partner receiver (examples/ipn-receiver) that
   * the demo merchant's postback URL points at, so its IPNs arrive and are logged; 0: none.
   */
  PAYMENTS_DEMO_RECEIVER_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /** A payment session created without expiresAt or ttlSeconds expires this long after creation (docs/payments-sessions.md). */
  PAYMENTS_SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(900),
};

export type PaymentsConfig = z.infer<z.ZodObject<typeof paymentsConfig>>;
