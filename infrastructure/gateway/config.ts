/** The gateway's settings: its slice of the service's configuration (README, "Configuration"; docs/gateway.md). */
import { z } from 'zod';
import { gatewayEnvironments, parseAllowlistEntry } from '../../application/gateway/index.js';
import { ConfigError, type Config } from '../shared/config.js';

/** Named address ranges express's `trust proxy` takes besides addresses and CIDR ranges. */
const namedRanges = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Express's `trust proxy`: false (the socket's address is the caller's), a number of proxy hops, or the proxies'
 * addresses (comma separated: addresses, CIDR ranges, loopback, linklocal, uniquelocal). `true` (trust every hop) is
 * refused: any caller could then name its own address in X-Forwarded-For and pass an allowlist.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string => {
    if (value === '' || value === 'false') return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const wrong = entries.find((e) => !namedRanges.includes(e) && !parseAllowlistEntry(e));
    if (wrong !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `"${wrong}" is not a hop count, an address, a CIDR range or one of ${namedRanges.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries.join(',');
  });

export const gatewayStores = ['auto', 'memory', 'postgres', 'redis'] as const;

export const gatewayConfig = {
  /** This deployment's environment; required with NODE_ENV=production (gatewayEnvironmentOf). */
  GATEWAY_ENVIRONMENT: z.enum(gatewayEnvironments).optional(),
  /**
   * Requests per window a party may send to one endpoint of an interface, unless it has an override: 1,000 per 10 s
   * (100/s on average, bursts of up to 1,000) suits an ordinary partner backend; a larger one gets an override
   * (docs/gateway.md, "Rate limits").
   */
  GATEWAY_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
  GATEWAY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(10),
  /**
   * Requests per window one end user (the interface's user header: X-User-Id, X-App-User-Id, X-MiniApp-User-ID) may
   * make to one endpoint through one party: 30 per 10 s, far above a person's taps, far below a script's. 0: none.
   */
  GATEWAY_USER_RATE_LIMIT_POINTS: z.coerce.number().int().min(0).max(10_000_000).default(30),
  GATEWAY_USER_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(10),
  /**
   * Where the counts live: auto (the node:cluster primary for API workers, this process's memory otherwise), memory
   * (each process its own), postgres (the service's database, for several hosts), redis (REDIS_URL).
   */
  GATEWAY_RATE_LIMIT_STORE: z.enum(gatewayStores).default('auto'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  GATEWAY_TRUST_PROXY: trustProxy.default('false'),
  /** How long a process keeps a client's and a party's lookup (another process's change is seen within it). */
  GATEWAY_LOOKUP_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfig>>;

/** The deployment's environment: dev unless set, and never guessed in production (a wrong one would let dev pairs in). */
export function gatewayEnvironmentOf(config: Pick<Config, 'NODE_ENV'> & Pick<GatewayConfig, 'GATEWAY_ENVIRONMENT'>) {
  if (config.GATEWAY_ENVIRONMENT) return config.GATEWAY_ENVIRONMENT;
  if (config.NODE_ENV === 'production')
    throw new ConfigError(
      'invalid configuration: GATEWAY_ENVIRONMENT must be set in production (dev, sit, uat or prod)',
    );
  return 'dev';
}
