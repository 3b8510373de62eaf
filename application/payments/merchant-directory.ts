/**
 * Payment merchants and paymentApiKeys as the hub's request path reads them (docs/payments.md, "Keys"): a key is
 * found by its sha256 (its lookup stream's name), never compared byte by byte; a merchant (secrets, terminals,
 * methods) is read from its stream. Both are kept a few seconds per process; onboarding's own changes are seen at
 * once (`forget`), other processes' within the TTL.
 */
import {
  evolvePaymentApiKeyLookup,
  paymentApiKeyUsable,
  paymentMerchantDecider,
  paymentsDecoders,
  streams,
  type PaymentApiKeyLookup,
  type PaymentMerchant,
} from '../../domain/payments/index.js';
import { fold } from '../../domain/shared/decider.js';
import type { Clock } from '../shared/clock.js';
import type { EventStore } from '../shared/event-store.js';
import { ExpiringLookups } from '../shared/expiring-lookups.js';
import { secretDigest } from '../shared/signatures.js';

/** Keys the hub issues are far shorter; longer input is refused without a lookup. */
const maxApiKeyLength = 256;

/** The terminal a request's paymentApiKey names. */
export interface PaymentCaller {
  merchantCode: string;
  terminalId: string;
  apiKeyId: string;
}

export type KeyCheck = { ok: true; caller: PaymentCaller } | { ok: false; reason: 'MISSING' | 'INVALID' };

export class PaymentMerchantDirectory {
  private readonly keys: ExpiringLookups<string, PaymentApiKeyLookup>;
  private readonly merchants: ExpiringLookups<string, PaymentMerchant | null>;

  constructor(private readonly deps: { store: EventStore; clock: Clock; ttlMs?: number }) {
    const ttlMs = deps.ttlMs ?? 5000;
    this.keys = new ExpiringLookups(
      async (digest) =>
        (await deps.store.readStream(streams.apiKey(digest)))
          .map((e) => paymentsDecoders.apiKey.decode(e))
          .reduce(evolvePaymentApiKeyLookup, null),
      { ttlMs, keep: (lookup) => lookup !== null },
    );
    this.merchants = new ExpiringLookups(
      async (code) => {
        const events = await deps.store.readStream(streams.merchant(code));
        const state = fold(
          paymentMerchantDecider,
          events.map((e) => paymentsDecoders.merchant.decode(e)),
        );
        return state.status === 'NONE' ? null : state;
      },
      { ttlMs, keep: (m) => m !== null },
    );
  }

  /** The terminal of a presented X-Payment-API-Key: absent, or unknown, revoked or expired (one answer for all). */
  async checkKey(apiKey: string | undefined): Promise<KeyCheck> {
    if (apiKey === undefined || apiKey === '') return { ok: false, reason: 'MISSING' };
    if (apiKey.length > maxApiKeyLength) return { ok: false, reason: 'INVALID' };
    const now = this.deps.clock.now();
    const lookup = await this.keys.get(secretDigest(apiKey), now.getTime());
    if (!paymentApiKeyUsable(lookup, now.toISOString())) return { ok: false, reason: 'INVALID' };
    const { merchantCode, terminalId, apiKeyId } = lookup;
    return { ok: true, caller: { merchantCode, terminalId, apiKeyId } };
  }

  /** The merchant as of at most the TTL ago (null: none). */
  merchant(merchantCode: string): Promise<PaymentMerchant | null> {
    return this.merchants.get(merchantCode, this.deps.clock.now().getTime());
  }

  forgetKey(digest: string): void {
    this.keys.forget(digest);
  }

  forgetMerchant(merchantCode: string): void {
    this.merchants.forget(merchantCode);
  }
}
