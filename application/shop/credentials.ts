import type { Clock } from '../shared/clock.js';
import type { CredentialCheck, MerchantApiKeys, MerchantCredentialHeaders } from '../shared/merchant-api-keys.js';
import { secretDigest } from '../shared/signatures.js';
import type { EventStore } from '../shared/event-store.js';
import { ExpiringLookups } from '../shared/expiring-lookups.js';
import {
  apiKeyAccess,
  apiKeyStream,
  evolveApiKeyLookup,
  type ApiKeyLookup,
  shopDecoders,
} from '../../domain/shop/index.js';

/** How a merchant API key is stored and looked up: its sha256, in hex. */
export const apiKeyHash = secretDigest;

/** Keys this service issues are far shorter; longer input is refused without a lookup. */
const maxApiKeyLength = 256;

/**
 * Key → merchant lookups, each read from the key's own small stream and kept
 * for a few seconds. One directory per event store, shared by everything in
 * the process that uses that store, so a revocation made here (MerchantAdmin)
 * is honoured at once; other processes see it within `ttlMs`.
 */
export class ApiKeyDirectory {
  private readonly lookups: ExpiringLookups<string, ApiKeyLookup>;

  constructor(store: EventStore, ttlMs = 5000, maxEntries = 10_000) {
    this.lookups = new ExpiringLookups(
      async (keyHash) =>
        (await store.readStream(apiKeyStream(keyHash)))
          .map((e) => shopDecoders.apiKey.decode(e))
          .reduce(evolveApiKeyLookup, null),
      // Unknown keys are not kept: random guesses must not fill memory.
      { ttlMs, maxEntries, keep: (lookup) => lookup !== null },
    );
  }

  find(keyHash: string, nowMs: number): Promise<ApiKeyLookup> {
    return this.lookups.get(keyHash, nowMs);
  }

  forget(keyHash: string): void {
    this.lookups.forget(keyHash);
  }
}

const directories = new WeakMap<EventStore, ApiKeyDirectory>();

/** The process's directory for `store`. */
export function apiKeyDirectoryFor(store: EventStore): ApiKeyDirectory {
  let directory = directories.get(store);
  if (!directory) directories.set(store, (directory = new ApiKeyDirectory(store)));
  return directory;
}

export type { CredentialCheck, CredentialRefusal } from '../shared/merchant-api-keys.js';

const keyRefusals = { UNKNOWN: 'API_KEY_INVALID', REVOKED: 'API_KEY_REVOKED', EXPIRED: 'API_KEY_EXPIRED' } as const;

export type ShopCredentialHeaders = MerchantCredentialHeaders;

/**
 * The shop's own credential headers, checked behind the gateway (which checked client_id/client_secret:
 * docs/gateway.md): the merchant's API key, which must belong to X-Merchant-Id. The key is found by its hash (the
 * stream name), so no stored secret is ever compared byte by byte, and it is never logged.
 */
export class ShopCredentials implements MerchantApiKeys {
  private readonly apiKeys: ApiKeyDirectory;

  constructor(private readonly deps: { store: EventStore; clock: Clock }) {
    this.apiKeys = apiKeyDirectoryFor(deps.store);
  }

  async check(headers: ShopCredentialHeaders): Promise<CredentialCheck> {
    if (!headers.apiKey) return { ok: false, reason: 'API_KEY_MISSING' };
    if (!headers.merchantId) return { ok: false, reason: 'MERCHANT_ID_MISSING' };
    if (headers.apiKey.length > maxApiKeyLength) return { ok: false, reason: 'API_KEY_INVALID' };

    const now = this.deps.clock.now();
    const access = apiKeyAccess(await this.apiKeys.find(apiKeyHash(headers.apiKey), now.getTime()), now.toISOString());
    if (!access.ok) return { ok: false, reason: keyRefusals[access.reason] };
    if (access.merchantId !== headers.merchantId) return { ok: false, reason: 'MERCHANT_MISMATCH' };
    return { ok: true, merchantId: access.merchantId };
  }
}
