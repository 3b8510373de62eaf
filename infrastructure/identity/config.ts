/** The identity context's settings: its slice of the service's configuration (README, "Configuration"; docs/identity.md). */
import { z } from 'zod';
import { bool } from '../shared/config.js';

const seconds = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const identityConfig = {
  /** `iss` of every access token, checked when one is read. */
  IDENTITY_ISSUER: z.string().trim().min(1).max(256).default('superapp-identity'),
  /** How long an authorization code may wait for its exchange. */
  IDENTITY_AUTH_CODE_TTL_SECONDS: seconds(10, 600, 90),
  IDENTITY_ACCESS_TOKEN_TTL_SECONDS: seconds(60, 86_400, 1800),
  IDENTITY_REFRESH_TOKEN_TTL_SECONDS: seconds(300, 366 * 86_400, 30 * 86_400),
  /**
   * The sandbox standing in for the host app (the consent page and POST /operator/v1/identity/auth-codes): whoever
   * reaches it logs in as any user. Default: on, except with NODE_ENV=production.
   */
  IDENTITY_SANDBOX: bool.optional(),
};

export type IdentityConfig = z.infer<z.ZodObject<typeof identityConfig>>;
