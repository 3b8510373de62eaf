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
import type { ApiKeyLookupEvent, MerchantApiKeyIssued, MerchantEvent } from './events.js';
import type { Decider } from '../shared/decider.js';
import { invalidInput, shopError } from './errors.js';

/** A merchant code: what shoppers send as X-Merchant-Id, and part of the merchant's stream name. */
export const merchantIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export type ApiKeyStatus = 'ACTIVE' | 'REVOKED';

/** A key as the application generated it: never the raw key. */
export interface NewApiKey {
  apiKeyId: number;
  prefix: string;
  keyHash: string;
  /** ISO 8601 in UTC, or null for a key that does not expire. */
  expiresAt: string | null;
}

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
  status: 'ACTIVE';
  merchantId: string;
  name: string;
  registeredAt: string;
  apiKeys: MerchantApiKey[];
}

export type MerchantState = { readonly status: 'NONE' } | Merchant;

/** Checked for form by the interface: merchantId a merchant code, name trimmed, times ISO 8601 in UTC. */
export type MerchantCommand =
  | { type: 'RegisterMerchant'; merchantId: string; name: string; apiKey: NewApiKey; now: string }
  | { type: 'IssueApiKey'; merchantId: string; apiKey: NewApiKey; now: string }
  | { type: 'RevokeApiKey'; merchantId: string; apiKeyId: number; now: string };

/** A key's expiry must lie ahead: `field` names it as the operator sent it. */
function assertFutureExpiry(apiKey: NewApiKey, now: string, field: string): void {
  if (apiKey.expiresAt !== null && Date.parse(apiKey.expiresAt) <= Date.parse(now))
    throw invalidInput(field, `${field} must be in the future`);
}

function issued(merchantId: string, apiKey: NewApiKey, now: string): MerchantApiKeyIssued {
  const { apiKeyId, prefix, keyHash, expiresAt } = apiKey;
  return {
    type: 'MerchantApiKeyIssued',
    data: { merchantId, apiKeyId, prefix, keyHash, expiresAt, issuedAt: now },
  };
}

function existing(state: MerchantState, merchantId: string): Merchant {
  if (state.status === 'NONE')
    throw shopError('MERCHANT_NOT_FOUND', `merchant ${merchantId} does not exist`, { merchantId });
  return state;
}

function decide(command: MerchantCommand, state: MerchantState): MerchantEvent[] {
  switch (command.type) {
    case 'RegisterMerchant': {
      if (state.status !== 'NONE')
        throw shopError('MERCHANT_EXISTS', `merchant ${command.merchantId} already exists`, {
          merchantId: command.merchantId,
        });
      assertFutureExpiry(command.apiKey, command.now, 'apiKeyExpiresAt');
      return [
        {
          type: 'MerchantRegistered',
          data: { merchantId: command.merchantId, name: command.name, registeredAt: command.now },
        },
        issued(command.merchantId, command.apiKey, command.now),
      ];
    }
    case 'IssueApiKey':
      existing(state, command.merchantId);
      assertFutureExpiry(command.apiKey, command.now, 'expiresAt');
      return [issued(command.merchantId, command.apiKey, command.now)];
    case 'RevokeApiKey': {
      const key = existing(state, command.merchantId).apiKeys.find((k) => k.apiKeyId === command.apiKeyId);
      if (!key)
        throw shopError('API_KEY_NOT_FOUND', `merchant ${command.merchantId} has no API key ${command.apiKeyId}`, {
          apiKeyId: command.apiKeyId,
        });
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
}

function evolve(state: MerchantState, event: MerchantEvent): MerchantState {
  if (event.type === 'MerchantRegistered') {
    const { merchantId, name, registeredAt } = event.data;
    return { status: 'ACTIVE', merchantId, name, registeredAt, apiKeys: [] };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'MerchantApiKeyIssued': {
      const { apiKeyId, prefix, keyHash, expiresAt, issuedAt } = event.data;
      return {
        ...state,
        apiKeys: [
          ...state.apiKeys,
          { apiKeyId, prefix, keyHash, status: 'ACTIVE', expiresAt, issuedAt, revokedAt: null },
        ],
      };
    }
    case 'MerchantApiKeyRevoked':
      return {
        ...state,
        apiKeys: state.apiKeys.map((k) =>
          k.apiKeyId === event.data.apiKeyId ? { ...k, status: 'REVOKED', revokedAt: event.data.revokedAt } : k,
        ),
      };
  }
}

export const merchantDecider: Decider<MerchantCommand, MerchantState, MerchantEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
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
