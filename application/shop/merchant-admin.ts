import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import {
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type StreamWrite,
} from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { fold } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';
import { streams } from '../../domain/shop/events.js';
import { shopDecoders, shopEventDecoder } from '../../domain/shop/event-decoder.js';
import {
  apiKeyLookupEventFor,
  apiKeyStream,
  assertMerchantId,
  merchantDecider,
  type ApiKeyLookupEvent,
  type ApiKeyStatus,
  type Merchant,
  type MerchantApiKey,
  type MerchantCommand,
  type MerchantState,
  type NewApiKey,
} from '../../domain/shop/merchant.js';
import { apiKeyDirectoryFor, apiKeyHash, type ApiKeyDirectory } from './credentials.js';

/** Keys start with this, so a leaked one is easy to recognise (secret scanners, logs). */
const keyPrefix = 'pk_live_';
/** Random characters of the key kept (with keyPrefix) to tell keys apart in listings. */
const shownRandomChars = 6;
const maxAttempts = 3;

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

function assertOperator(operator: unknown): asserts operator is string {
  if (typeof operator !== 'string' || !operator.trim())
    throw new DomainError('INVALID_INPUT', 'operator is required', { field: 'operator' });
}

/** The same UUID for the same name: a lookup event appended again by a retry is recognised as already written. */
function nameBasedUuid(name: string): string {
  const b = createHash('sha256').update(name).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const keyView = (k: MerchantApiKey): ApiKeyView => ({
  id: k.apiKeyId,
  prefix: k.prefix,
  status: k.status,
  expiresAt: k.expiresAt,
  issuedAt: k.issuedAt,
  revokedAt: k.revokedAt,
});

/**
 * Operator commands on merchants and their API keys (stream merchant-<id>).
 * A key is generated here, returned once and stored only as its sha256;
 * every issue and revocation also writes the key's lookup stream
 * (apiKey-<sha256>) in the same appendMany, lookup first, so that a partial
 * write on a store without multi-stream transactions never leaves a usable
 * key the merchant does not list.
 */
export class MerchantAdmin {
  private readonly apiKeys: ApiKeyDirectory;

  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {
    this.apiKeys = apiKeyDirectoryFor(deps.store);
  }

  async register(
    operator: string,
    input: { merchantId: string; name: string; apiKeyExpiresAt?: string | null },
  ): Promise<RegisteredMerchant> {
    assertOperator(operator);
    assertMerchantId(input.merchantId);
    const { key, apiKey } = await this.newApiKey(input.apiKeyExpiresAt ?? null);
    const { state } = await this.execute(operator, {
      type: 'RegisterMerchant',
      merchantId: input.merchantId,
      name: input.name,
      apiKey,
      now: this.deps.clock.now().toISOString(),
    });
    const issued = state!.apiKeys.at(-1)!;
    return {
      merchantId: state!.merchantId,
      name: state!.name,
      apiKey: { id: issued.apiKeyId, key, prefix: issued.prefix, expiresAt: issued.expiresAt },
    };
  }

  async issueApiKey(
    operator: string,
    merchantId: string,
    input: { expiresAt?: string | null } = {},
  ): Promise<IssuedApiKeyView> {
    assertOperator(operator);
    assertMerchantId(merchantId);
    const { key, apiKey } = await this.newApiKey(input.expiresAt ?? null);
    const { state } = await this.execute(operator, {
      type: 'IssueApiKey',
      merchantId,
      apiKey,
      now: this.deps.clock.now().toISOString(),
    });
    const issued = state!.apiKeys.at(-1)!;
    return { id: issued.apiKeyId, key, prefix: issued.prefix, expiresAt: issued.expiresAt };
  }

  /** Revoking a revoked key succeeds and changes nothing. */
  async revokeApiKey(operator: string, merchantId: string, apiKeyId: number): Promise<ApiKeyView> {
    assertOperator(operator);
    assertMerchantId(merchantId);
    const { state } = await this.execute(operator, {
      type: 'RevokeApiKey',
      merchantId,
      apiKeyId,
      now: this.deps.clock.now().toISOString(),
    });
    const key = state!.apiKeys.find((k) => k.apiKeyId === apiKeyId)!;
    this.apiKeys.forget(key.keyHash);
    return keyView(key);
  }

  /** The merchant and its keys (never a key or its hash). */
  async get(merchantId: string): Promise<MerchantView> {
    assertMerchantId(merchantId);
    const { state: merchant } = await this.load(merchantId);
    if (!merchant) throw new DomainError('MERCHANT_NOT_FOUND', `merchant ${merchantId} does not exist`, { merchantId });
    return {
      merchantId: merchant.merchantId,
      name: merchant.name,
      registeredAt: merchant.registeredAt,
      apiKeys: merchant.apiKeys.map(keyView),
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

  private async load(merchantId: string): Promise<{ state: MerchantState; version: number }> {
    const recorded = await this.deps.store.readStream(streams.merchant(merchantId));
    const events = recorded.map((e) => shopDecoders.merchant.decode(e));
    return { state: fold(merchantDecider, events), version: recorded.at(-1)?.revision ?? -1 };
  }

  /** Load, decide, append; decides again on a concurrent change of the merchant. */
  private async execute(operator: string, command: MerchantCommand): Promise<{ state: Merchant | null }> {
    const streamName = streams.merchant(command.merchantId);
    const metadata: EventMetadata = { occurredAt: command.now, actor: { operator } };
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await this.load(command.merchantId);
      const events = merchantDecider.decide(command, state);
      if (events.length === 0) return { state };
      const lookups: StreamWrite[] = events.flatMap((e) => {
        const lookup = apiKeyLookupEventFor(e);
        return lookup ? [lookupWrite(lookup.keyHash, lookup.event, metadata)] : [];
      });
      const merchantWrite: StreamWrite = {
        streamName,
        events: events.map((e) => ({
          id: randomUUID(),
          type: e.type,
          schemaVersion: shopEventDecoder.currentVersion(e.type),
          data: e.data,
          metadata,
        })),
        expectedVersion: version === -1 ? 'no_stream' : version,
      };
      try {
        await this.deps.store.appendMany([...lookups, merchantWrite]);
        return { state: events.reduce(merchantDecider.evolve, state) };
      } catch (e) {
        if (!(e instanceof WrongExpectedVersionError) || e.streamName !== streamName || attempt === maxAttempts)
          throw e;
      }
    }
  }
}

function lookupWrite(keyHash: string, event: ApiKeyLookupEvent, metadata: EventMetadata): StreamWrite {
  const append: EventToAppend = {
    id: nameBasedUuid(`${event.type}:${keyHash}`),
    type: event.type,
    schemaVersion: shopEventDecoder.currentVersion(event.type),
    data: event.data,
    metadata,
  };
  return {
    streamName: apiKeyStream(keyHash),
    events: [append],
    expectedVersion: event.type === 'ApiKeyClaimed' ? 'no_stream' : 'stream_exists',
  };
}
