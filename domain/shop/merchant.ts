/**
 * Merchants of the voucher shop and their API keys.
 *
 * Streams:
 *   merchant-<merchantId>   the merchant and every key it was issued (hash and prefix only)
 *   apiKey-<sha256hex>      lookup guard of one key: which merchant owns it, its expiry, its revocation.
 *                           Appended in the same write as the merchant event (the claim with
 *                           'no_stream'), so authentication reads one small stream.
 *
 * The raw key never reaches the domain: the application hashes it and passes
 * the sha256 (hex) and a short display prefix.
 */
import type { Decider, DomainEvent } from '../shared/decider.js';
import { DomainError } from '../shared/errors.js';

export const merchantIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
const maxNameLength = 200;

/** Epoch ms of an ISO 8601 date-time with an explicit offset (a bare local time would depend on the server's zone); NaN otherwise. */
function parseDateTime(value: unknown): number {
  const m =
    typeof value === 'string'
      ? /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value)
      : null;
  if (!m) return NaN;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (day.getUTCMonth() !== Number(m[2]) - 1 || day.getUTCDate() !== Number(m[3])) return NaN; // 2024-02-30 and the like
  return Date.parse(value as string);
}

export type ApiKeyStatus = 'ACTIVE' | 'REVOKED';

/** A key as the application generated it: never the raw key. */
export interface NewApiKey {
  apiKeyId: number;
  prefix: string;
  keyHash: string;
  /** ISO 8601, or null for a key that does not expire. */
  expiresAt: string | null;
}

// ---- merchant-<merchantId> ----

export type MerchantRegistered = DomainEvent<
  'MerchantRegistered',
  { merchantId: string; name: string; registeredAt: string }
>;
export type MerchantApiKeyIssued = DomainEvent<
  'MerchantApiKeyIssued',
  { merchantId: string; apiKeyId: number; prefix: string; keyHash: string; expiresAt: string | null; issuedAt: string }
>;
export type MerchantApiKeyRevoked = DomainEvent<
  'MerchantApiKeyRevoked',
  { merchantId: string; apiKeyId: number; keyHash: string; revokedAt: string }
>;

export type MerchantEvent = MerchantRegistered | MerchantApiKeyIssued | MerchantApiKeyRevoked;

// ---- apiKey-<keyHash> ----

export type ApiKeyClaimed = DomainEvent<
  'ApiKeyClaimed',
  { merchantId: string; apiKeyId: number; expiresAt: string | null; claimedAt: string }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { merchantId: string; apiKeyId: number; revokedAt: string }>;

export type ApiKeyLookupEvent = ApiKeyClaimed | ApiKeyRevoked;

export const apiKeyStream = (keyHash: string) => `apiKey-${keyHash}`;

// ---- the merchant aggregate ----

export interface MerchantApiKey {
  apiKeyId: number;
  prefix: string;
  keyHash: string;
  status: ApiKeyStatus;
  expiresAt: string | null;
  issuedAt: string;
  revokedAt: string | null;
}

export interface Merchant {
  merchantId: string;
  name: string;
  registeredAt: string;
  apiKeys: MerchantApiKey[];
}

/** null until the merchant is registered. */
export type MerchantState = Merchant | null;

export type MerchantCommand =
  | { type: 'RegisterMerchant'; merchantId: string; name: string; apiKey: NewApiKey; now: string }
  | { type: 'IssueApiKey'; merchantId: string; apiKey: NewApiKey; now: string }
  | { type: 'RevokeApiKey'; merchantId: string; apiKeyId: number; now: string };

function invalid(field: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', message, { field });
}

/** Throws INVALID_INPUT unless `merchantId` is a merchant code (it also names a stream). */
export function assertMerchantId(merchantId: unknown): asserts merchantId is string {
  if (typeof merchantId !== 'string' || !merchantIdPattern.test(merchantId)) {
    throw invalid('merchantId', 'merchantId must be 1 to 64 letters, digits, "_" or "-"');
  }
}

/** A key's expiry: null, or an ISO 8601 instant after now, normalised to UTC. */
function keyExpiry(expiresAt: string | null, now: string, field: string): string | null {
  if (expiresAt === null) return null;
  const at = parseDateTime(expiresAt);
  if (Number.isNaN(at)) throw invalid(field, `${field} must be an ISO 8601 date-time with offset, or null`);
  if (at <= Date.parse(now)) throw invalid(field, `${field} must be in the future`);
  return new Date(at).toISOString();
}

function issued(merchantId: string, apiKey: NewApiKey, now: string, expiryField: string): MerchantApiKeyIssued {
  return {
    type: 'MerchantApiKeyIssued',
    data: {
      merchantId,
      apiKeyId: apiKey.apiKeyId,
      prefix: apiKey.prefix,
      keyHash: apiKey.keyHash,
      expiresAt: keyExpiry(apiKey.expiresAt, now, expiryField),
      issuedAt: now,
    },
  };
}

function existing(state: MerchantState, merchantId: string): Merchant {
  if (!state) throw new DomainError('MERCHANT_NOT_FOUND', `merchant ${merchantId} does not exist`, { merchantId });
  return state;
}

export const merchantDecider: Decider<MerchantCommand, MerchantState, MerchantEvent> = {
  initialState: null,

  decide(command, state) {
    assertMerchantId(command.merchantId);
    switch (command.type) {
      case 'RegisterMerchant': {
        if (state)
          throw new DomainError('MERCHANT_EXISTS', `merchant ${command.merchantId} already exists`, {
            merchantId: command.merchantId,
          });
        const name = typeof command.name === 'string' ? command.name.trim() : '';
        if (!name || name.length > maxNameLength)
          throw invalid('name', `name must be 1 to ${maxNameLength} characters`);
        return [
          { type: 'MerchantRegistered', data: { merchantId: command.merchantId, name, registeredAt: command.now } },
          issued(command.merchantId, command.apiKey, command.now, 'apiKeyExpiresAt'),
        ];
      }
      case 'IssueApiKey':
        existing(state, command.merchantId);
        return [issued(command.merchantId, command.apiKey, command.now, 'expiresAt')];
      case 'RevokeApiKey': {
        const key = existing(state, command.merchantId).apiKeys.find((k) => k.apiKeyId === command.apiKeyId);
        if (!key)
          throw new DomainError(
            'API_KEY_NOT_FOUND',
            `merchant ${command.merchantId} has no API key ${command.apiKeyId}`,
            { apiKeyId: command.apiKeyId },
          );
        // Revoking twice changes nothing, so a retried revocation succeeds.
        if (key.status === 'REVOKED') return [];
        return [
          {
            type: 'MerchantApiKeyRevoked',
            data: {
              merchantId: command.merchantId,
              apiKeyId: key.apiKeyId,
              keyHash: key.keyHash,
              revokedAt: command.now,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'MerchantRegistered':
        return {
          merchantId: event.data.merchantId,
          name: event.data.name,
          registeredAt: event.data.registeredAt,
          apiKeys: [],
        };
      case 'MerchantApiKeyIssued': {
        const { apiKeyId, prefix, keyHash, expiresAt, issuedAt } = event.data;
        const merchant = state!;
        return {
          ...merchant,
          apiKeys: [
            ...merchant.apiKeys,
            { apiKeyId, prefix, keyHash, status: 'ACTIVE', expiresAt, issuedAt, revokedAt: null },
          ],
        };
      }
      case 'MerchantApiKeyRevoked': {
        const merchant = state!;
        return {
          ...merchant,
          apiKeys: merchant.apiKeys.map((k) =>
            k.apiKeyId === event.data.apiKeyId ? { ...k, status: 'REVOKED', revokedAt: event.data.revokedAt } : k,
          ),
        };
      }
    }
  },
};

/** The lookup-stream event that must be written together with a merchant event, if any. */
export function apiKeyLookupEventFor(event: MerchantEvent): { keyHash: string; event: ApiKeyLookupEvent } | null {
  switch (event.type) {
    case 'MerchantApiKeyIssued': {
      const { merchantId, apiKeyId, keyHash, expiresAt, issuedAt } = event.data;
      return {
        keyHash,
        event: { type: 'ApiKeyClaimed', data: { merchantId, apiKeyId, expiresAt, claimedAt: issuedAt } },
      };
    }
    case 'MerchantApiKeyRevoked': {
      const { merchantId, apiKeyId, keyHash, revokedAt } = event.data;
      return { keyHash, event: { type: 'ApiKeyRevoked', data: { merchantId, apiKeyId, revokedAt } } };
    }
    case 'MerchantRegistered':
      return null;
  }
}

// ---- authentication by key ----

/** What the lookup stream says about one key; null when no key has that hash. */
export type ApiKeyLookup = { merchantId: string; apiKeyId: number; expiresAt: string | null; revoked: boolean } | null;

export function evolveApiKeyLookup(state: ApiKeyLookup, event: ApiKeyLookupEvent): ApiKeyLookup {
  switch (event.type) {
    case 'ApiKeyClaimed':
      return {
        merchantId: event.data.merchantId,
        apiKeyId: event.data.apiKeyId,
        expiresAt: event.data.expiresAt,
        revoked: false,
      };
    case 'ApiKeyRevoked':
      return state && { ...state, revoked: true };
  }
}

export type ApiKeyAccess = { ok: true; merchantId: string } | { ok: false; reason: 'UNKNOWN' | 'REVOKED' | 'EXPIRED' };

/** Whether a presented key may be used at `now`: known, not revoked, not yet expired. */
export function apiKeyAccess(lookup: ApiKeyLookup, now: string): ApiKeyAccess {
  if (!lookup) return { ok: false, reason: 'UNKNOWN' };
  if (lookup.revoked) return { ok: false, reason: 'REVOKED' };
  if (lookup.expiresAt !== null && Date.parse(now) >= Date.parse(lookup.expiresAt))
    return { ok: false, reason: 'EXPIRED' };
  return { ok: true, merchantId: lookup.merchantId };
}
