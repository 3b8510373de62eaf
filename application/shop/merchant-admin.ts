/**
 * Operator commands on merchants and their API keys (stream merchant-<id>), through the write engine. A key is
 * generated here, returned once and stored only as its sha256; every issue and revocation also writes the key's
 * lookup stream (apiKey-<sha256>) in the same append, lookup first (the issue as a guard claim: aggregates.ts), so
 * that a partial write on a store without multi-stream transactions never leaves a usable key the merchant does not
 * list: the raw key of a failed issue was never shown to anyone.
 */
import {
  shopError,
  type ApiKeyStatus,
  type Merchant,
  type MerchantApiKey,
  type MerchantCommand,
  type NewApiKey,
} from '../../domain/shop/index.js';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { shopAggregates } from './aggregates.js';
import { apiKeyDirectoryFor, apiKeyHash, type ApiKeyDirectory } from './credentials.js';

/** Keys start with this, so a leaked one is easy to recognise (secret scanners, logs). */
const keyPrefix = 'pk_live_';
/** Random characters of the key kept (with keyPrefix) to tell keys apart in listings. */
const shownRandomChars = 6;

/** A key as returned once, at issue: the only time the raw key exists outside the caller. */
export interface IssuedApiKeyView {
  id: number;
  key: string;
  prefix: string;
  expiresAt: string | null;
}

export interface ApiKeyView {
  id: number;
  prefix: string;
  status: ApiKeyStatus;
  expiresAt: string | null;
  issuedAt: string;
  revokedAt: string | null;
}

export interface MerchantView {
  merchantId: string;
  name: string;
  registeredAt: string;
  apiKeys: ApiKeyView[];
}

export interface RegisteredMerchant {
  merchantId: string;
  name: string;
  apiKey: IssuedApiKeyView;
}

const keyView = (k: MerchantApiKey): ApiKeyView => ({
  id: k.apiKeyId,
  prefix: k.prefix,
  status: k.status,
  expiresAt: k.expiresAt,
  issuedAt: k.issuedAt,
  revokedAt: k.revokedAt,
});

export class MerchantAdmin {
  private readonly apiKeys: ApiKeyDirectory;
  private readonly merchants;

  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {
    this.apiKeys = apiKeyDirectoryFor(deps.store);
    this.merchants = shopAggregates(deps).merchant;
  }

  async register(
    context: CommandContext,
    input: { merchantId: string; name: string; apiKeyExpiresAt?: string | null },
  ): Promise<RegisteredMerchant> {
    const { key, apiKey } = await this.newApiKey(input.apiKeyExpiresAt ?? null);
    const merchant = await this.run(context, input.merchantId, (now) => ({
      type: 'RegisterMerchant',
      merchantId: input.merchantId,
      name: input.name,
      apiKey,
      now,
    }));
    const issued = merchant.apiKeys.at(-1)!;
    return {
      merchantId: merchant.merchantId,
      name: merchant.name,
      apiKey: { id: issued.apiKeyId, key, prefix: issued.prefix, expiresAt: issued.expiresAt },
    };
  }

  async issueApiKey(
    context: CommandContext,
    merchantId: string,
    input: { expiresAt?: string | null } = {},
  ): Promise<IssuedApiKeyView> {
    const { key, apiKey } = await this.newApiKey(input.expiresAt ?? null);
    const merchant = await this.run(context, merchantId, (now) => ({ type: 'IssueApiKey', merchantId, apiKey, now }));
    const issued = merchant.apiKeys.at(-1)!;
    return { id: issued.apiKeyId, key, prefix: issued.prefix, expiresAt: issued.expiresAt };
  }

  /** Revoking a revoked key succeeds and changes nothing. */
  async revokeApiKey(context: CommandContext, merchantId: string, apiKeyId: number): Promise<ApiKeyView> {
    const merchant = await this.run(
      context,
      merchantId,
      (now) => ({ type: 'RevokeApiKey', merchantId, apiKeyId, now }),
      true,
    );
    const key = merchant.apiKeys.find((k) => k.apiKeyId === apiKeyId)!;
    this.apiKeys.forget(key.keyHash);
    return keyView(key);
  }

  /** The merchant and its keys (never a key or its hash). */
  async get(merchantId: string): Promise<MerchantView> {
    const state = await this.merchants.state(merchantId);
    if (state.status === 'NONE')
      throw shopError('MERCHANT_NOT_FOUND', `merchant ${merchantId} does not exist`, { merchantId });
    return {
      merchantId: state.merchantId,
      name: state.name,
      registeredAt: state.registeredAt,
      apiKeys: state.apiKeys.map(keyView),
    };
  }

  private async newApiKey(expiresAt: string | null): Promise<{ key: string; apiKey: NewApiKey }> {
    const key = keyPrefix + randomBytes(32).toString('base64url');
    const [apiKeyId] = await this.deps.ids.next('merchantApiKey');
    return {
      key,
      apiKey: {
        apiKeyId: apiKeyId!,
        prefix: key.slice(0, keyPrefix.length + shownRandomChars),
        keyHash: apiKeyHash(key),
        expiresAt,
      },
    };
  }

  /**
   * The merchant after the command. A raw key is shown once: the command of an issue carried out before (a resend)
   * cannot answer it again, unlike a revocation (`replayable`).
   */
  private async run(
    context: CommandContext,
    merchantId: string,
    command: (now: string) => MerchantCommand,
    replayable = false,
  ): Promise<Merchant> {
    const { state, events, replayed } = await this.merchants.handle(context, merchantId, command);
    if (replayed && !replayable) {
      const issued = events.find((e) => e.type === 'MerchantApiKeyIssued');
      throw shopError(
        'API_KEY_SHOWN_ONCE',
        `this request was carried out before: it issued API key ${issued?.data.apiKeyId ?? ''}, which is shown only once; revoke it and issue another`,
        { merchantId },
      );
    }
    if (state.status === 'NONE') throw new Error('a merchant command answered without a merchant');
    return state;
  }
}
