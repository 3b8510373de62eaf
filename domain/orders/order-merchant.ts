/**
 * A merchant of the order view (one per accounting partner code) and its webhook key pairs (docs/orders-keys.md,
 * "Merchant keys"): at most one active pair per environment; a rotation issues the successor and lets the old pair
 * work until the end of the overlap window; a revocation stops a pair at once. The raw apiKey and secretKey never
 * reach the domain: the application passes the key's digest and the secret encrypted.
 */
import type { Decider } from '../shared/decider.js';
import { ordersError } from './errors.js';
import type { KeyEnvironment, OrderApiKeyEvent, OrderKeyIssued, OrderMerchantEvent } from './events.js';

export type OrderKeyStatus = 'ACTIVE' | 'RETIRING' | 'REVOKED';

/** A key pair as the application generated it. */
export interface NewOrderKey {
  keyId: number;
  environment: KeyEnvironment;
  prefix: string;
  keyDigest: string;
  secretCiphertext: string;
}

export interface OrderMerchantKey {
  keyId: number;
  environment: KeyEnvironment;
  prefix: string;
  keyDigest: string;
  status: OrderKeyStatus;
  rotatedFrom: number | null;
  issuedAt: string;
  retiresAt: string | null;
  revokedAt: string | null;
}

export type OrderMerchantState =
  | { status: 'NONE' }
  | { status: 'ACTIVE'; merchantId: string; name: string; registeredAt: string; keys: OrderMerchantKey[] };

export type OrderMerchantCommand =
  | { type: 'RegisterOrderMerchant'; merchantId: string; name: string; now: string }
  | { type: 'IssueOrderKey'; merchantId: string; key: NewOrderKey; now: string }
  | { type: 'RotateOrderKey'; merchantId: string; keyId: number; key: NewOrderKey; overlapMs: number; now: string }
  | { type: 'RevokeOrderKey'; merchantId: string; keyId: number; now: string };

type Registered = Extract<OrderMerchantState, { status: 'ACTIVE' }>;

function existing(state: OrderMerchantState, merchantId: string): Registered {
  if (state.status === 'NONE')
    throw ordersError('ORDER_MERCHANT_NOT_FOUND', `merchant ${merchantId} does not exist`, { merchantId });
  return state;
}

function keyOf(state: Registered, keyId: number): OrderMerchantKey {
  const key = state.keys.find((k) => k.keyId === keyId);
  if (!key) throw ordersError('ORDER_KEY_NOT_FOUND', `merchant ${state.merchantId} has no key ${keyId}`, { keyId });
  return key;
}

function issued(merchantId: string, key: NewOrderKey, now: string, rotatedFrom: number | null): OrderKeyIssued {
  return { type: 'OrderKeyIssued', data: { merchantId, ...key, rotatedFrom, issuedAt: now } };
}

function decide(command: OrderMerchantCommand, state: OrderMerchantState): OrderMerchantEvent[] {
  switch (command.type) {
    case 'RegisterOrderMerchant':
      if (state.status !== 'NONE')
        throw ordersError('ORDER_MERCHANT_EXISTS', `merchant ${command.merchantId} exists already`, {
          field: 'merchant_id',
        });
      return [
        {
          type: 'OrderMerchantRegistered',
          data: { merchantId: command.merchantId, name: command.name, registeredAt: command.now },
        },
      ];
    case 'IssueOrderKey': {
      const merchant = existing(state, command.merchantId);
      const active = merchant.keys.find((k) => k.status === 'ACTIVE' && k.environment === command.key.environment);
      if (active)
        throw ordersError(
          'ORDER_KEY_ACTIVE_EXISTS',
          `merchant ${merchant.merchantId} holds active ${active.environment} key ${active.keyId}: rotate it instead`,
          { field: 'environment', keyId: active.keyId },
        );
      return [issued(merchant.merchantId, command.key, command.now, null)];
    }
    case 'RotateOrderKey': {
      const merchant = existing(state, command.merchantId);
      const old = keyOf(merchant, command.keyId);
      if (old.status !== 'ACTIVE')
        throw ordersError('ORDER_KEY_NOT_ACTIVE', `key ${old.keyId} is ${old.status}: only an active key rotates`, {
          keyId: old.keyId,
        });
      const retiresAt = new Date(Date.parse(command.now) + command.overlapMs).toISOString();
      return [
        issued(merchant.merchantId, { ...command.key, environment: old.environment }, command.now, old.keyId),
        {
          type: 'OrderKeyRetiring',
          data: {
            merchantId: merchant.merchantId,
            keyId: old.keyId,
            keyDigest: old.keyDigest,
            retiresAt,
            rotatedAt: command.now,
          },
        },
      ];
    }
    case 'RevokeOrderKey': {
      const merchant = existing(state, command.merchantId);
      const key = keyOf(merchant, command.keyId);
      if (key.status === 'REVOKED') return [];
      return [
        {
          type: 'OrderKeyRevoked',
          data: { merchantId: merchant.merchantId, keyId: key.keyId, keyDigest: key.keyDigest, revokedAt: command.now },
        },
      ];
    }
  }
}

function evolve(state: OrderMerchantState, event: OrderMerchantEvent): OrderMerchantState {
  if (event.type === 'OrderMerchantRegistered') {
    const { merchantId, name, registeredAt } = event.data;
    return { status: 'ACTIVE', merchantId, name, registeredAt, keys: [] };
  }
  if (state.status === 'NONE') return state;
  const change = (keyId: number, f: (k: OrderMerchantKey) => OrderMerchantKey) => ({
    ...state,
    keys: state.keys.map((k) => (k.keyId === keyId ? f(k) : k)),
  });
  switch (event.type) {
    case 'OrderKeyIssued': {
      const { keyId, environment, prefix, keyDigest, rotatedFrom, issuedAt } = event.data;
      const key: OrderMerchantKey = {
        keyId,
        environment,
        prefix,
        keyDigest,
        status: 'ACTIVE',
        rotatedFrom,
        issuedAt,
        retiresAt: null,
        revokedAt: null,
      };
      return { ...state, keys: [...state.keys, key] };
    }
    case 'OrderKeyRetiring':
      return change(event.data.keyId, (k) => ({ ...k, status: 'RETIRING', retiresAt: event.data.retiresAt }));
    case 'OrderKeyRevoked':
      return change(event.data.keyId, (k) => ({ ...k, status: 'REVOKED', revokedAt: event.data.revokedAt }));
  }
}

export const orderMerchantDecider: Decider<OrderMerchantCommand, OrderMerchantState, OrderMerchantEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/** The lookup-stream event written together with a merchant event, if any (the is a guard claim). */
export function orderApiKeyEventFor(event: OrderMerchantEvent): { keyDigest: string; event: OrderApiKeyEvent } | null {
  switch (event.type) {
    case 'OrderKeyIssued': {
      const { merchantId, keyId, environment, secretCiphertext, keyDigest, issuedAt } = event.data;
      return {
        keyDigest,
        event: {
          type: 'OrderApiKeyClaimed',
          data: { merchantId, keyId, environment, secretCiphertext, claimedAt: issuedAt },
        },
      };
    }
    case 'OrderKeyRetiring':
      return {
        keyDigest: event.data.keyDigest,
        event: { type: 'OrderApiKeyRetiring', data: { keyId: event.data.keyId, retiresAt: event.data.retiresAt } },
      };
    case 'OrderKeyRevoked':
      return {
        keyDigest: event.data.keyDigest,
        event: { type: 'OrderApiKeyRevoked', data: { keyId: event.data.keyId, revokedAt: event.data.revokedAt } },
      };
    case 'OrderMerchantRegistered':
      return null;
  }
}

// ---- authentication by key ----

/** What a key's lookup stream says; null when no key has that digest. */
export type OrderApiKeyLookup = {
  merchantId: string;
  keyId: number;
  environment: KeyEnvironment;
  secretCiphertext: string;
  retiresAt: string | null;
  revoked: boolean;
} | null;

export function evolveOrderApiKeyLookup(state: OrderApiKeyLookup, event: OrderApiKeyEvent): OrderApiKeyLookup {
  switch (event.type) {
    case 'OrderApiKeyClaimed': {
      const { merchantId, keyId, environment, secretCiphertext } = event.data;
      return { merchantId, keyId, environment, secretCiphertext, retiresAt: null, revoked: false };
    }
    case 'OrderApiKeyRetiring':
      return state && { ...state, retiresAt: event.data.retiresAt };
    case 'OrderApiKeyRevoked':
      return state && { ...state, revoked: true };
  }
}

export type OrderApiKeyAccess =
  | { ok: true; merchantId: string; keyId: number; secretCiphertext: string }
  | { ok: false; reason: 'UNKNOWN' | 'REVOKED' | 'RETIRED' | 'WRONG_ENVIRONMENT' };

/** Whether a presented key may sign a webhook at `now` in a deployment taking `environment` keys. */
export function orderApiKeyAccess(
  lookup: OrderApiKeyLookup,
  now: string,
  environment: KeyEnvironment,
): OrderApiKeyAccess {
  if (!lookup) return { ok: false, reason: 'UNKNOWN' };
  if (lookup.revoked) return { ok: false, reason: 'REVOKED' };
  if (lookup.retiresAt !== null && Date.parse(now) >= Date.parse(lookup.retiresAt))
    return { ok: false, reason: 'RETIRED' };
  if (lookup.environment !== environment) return { ok: false, reason: 'WRONG_ENVIRONMENT' };
  return { ok: true, merchantId: lookup.merchantId, keyId: lookup.keyId, secretCiphertext: lookup.secretCiphertext };
}
