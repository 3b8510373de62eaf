/**
 * The order view's own credential behind the gateway (docs/orders-signing.md, "Headers"): the X-API-Key of a merchant, found by
 * its sha256 (the lookup stream's name, so no stored key is compared byte by byte), kept a few seconds per process,
 * and the merchant's secretKey decrypted to check the secure_hash, kept decrypted in memory by its ciphertext (never
 * written anywhere: at rest it stays encrypted; docs/orders-keys.md). Keys are never logged.
 */
import {
  evolveOrderApiKeyLookup,
  orderApiKeyAccess,
  ordersDecoders,
  streams,
  type KeyEnvironment,
  type OrderApiKeyLookup,
} from '../../domain/orders/index.js';
import { BoundedCache } from '../shared/bounded-cache.js';
import type { Clock } from '../shared/clock.js';
import type { EventStore } from '../shared/event-store.js';
import { ExpiringLookups } from '../shared/expiring-lookups.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { secretDigest } from '../shared/signatures.js';

/** The form of an apiKey (the seed: `ak_{env}_{random_32_chars}`). */
export const apiKeyForm = /^ak_(live|test)_[A-Za-z0-9]{32}$/;

/** What a secretKey's encryption is bound to: copied onto another key's record it does not open. */
export const secretBinding = (merchantId: string, keyId: number) => `${merchantId}/${keyId}`;

export class OrderKeyDirectory {
  private readonly lookups: ExpiringLookups<string, OrderApiKeyLookup>;

  constructor(store: EventStore, ttlMs = 5000) {
    this.lookups = new ExpiringLookups(
      async (digest) =>
        (await store.readStream(streams.orderApiKey(digest)))
          .map((e) => ordersDecoders.orderApiKey.decode(e))
          .reduce(evolveOrderApiKeyLookup, null),
      { ttlMs, maxEntries: 10_000, keep: (lookup) => lookup !== null },
    );
  }

  find(digest: string, nowMs: number): Promise<OrderApiKeyLookup> {
    return this.lookups.get(digest, nowMs);
  }

  forget(digest: string): void {
    this.lookups.forget(digest);
  }
}

const directories = new WeakMap<EventStore, OrderKeyDirectory>();

/** The process's directory for `store`: a revocation made here is honoured at once. */
export function orderKeyDirectoryFor(store: EventStore): OrderKeyDirectory {
  let directory = directories.get(store);
  if (!directory) directories.set(store, (directory = new OrderKeyDirectory(store)));
  return directory;
}

export type WebhookKeyRefusal =
  'API_KEY_MISSING' | 'API_KEY_MALFORMED' | 'API_KEY_INVALID' | 'API_KEY_WRONG_ENVIRONMENT';

export type WebhookKeyCheck =
  { ok: true; merchantId: string; keyId: number; secretKey: string } | { ok: false; reason: WebhookKeyRefusal };

export class WebhookKeys {
  private readonly directory: OrderKeyDirectory;
  /**
   * secretKeys by their ciphertext and binding: decrypting (AES-GCM) was a twentieth of a webhook's CPU. Whether a key
   * may be used is decided by the lookup above every time; this only spares opening the same ciphertext again.
   */
  private readonly secrets = new BoundedCache<string, string>(1000);

  constructor(
    private readonly deps: { store: EventStore; clock: Clock; cipher: SecretCipher; environment: KeyEnvironment },
  ) {
    this.directory = orderKeyDirectoryFor(deps.store);
  }

  /** The environment whose keys this deployment takes (`live` in production, `test` on staging and UAT). */
  get environment(): KeyEnvironment {
    return this.deps.environment;
  }

  async check(apiKey: string | undefined): Promise<WebhookKeyCheck> {
    if (!apiKey) return { ok: false, reason: 'API_KEY_MISSING' };
    if (!apiKeyForm.test(apiKey)) return { ok: false, reason: 'API_KEY_MALFORMED' };
    const now = this.deps.clock.now();
    const lookup = await this.directory.find(secretDigest(apiKey), now.getTime());
    const access = orderApiKeyAccess(lookup, now.toISOString(), this.deps.environment);
    if (!access.ok)
      return {
        ok: false,
        reason: access.reason === 'WRONG_ENVIRONMENT' ? 'API_KEY_WRONG_ENVIRONMENT' : 'API_KEY_INVALID',
      };
    const binding = secretBinding(access.merchantId, access.keyId);
    const cacheKey = `${binding}\u0000${access.secretCiphertext}`;
    let secretKey = this.secrets.get(cacheKey);
    if (secretKey === undefined)
      this.secrets.set(cacheKey, (secretKey = this.deps.cipher.decrypt(access.secretCiphertext, binding)));
    return { ok: true, merchantId: access.merchantId, keyId: access.keyId, secretKey };
  }
}
