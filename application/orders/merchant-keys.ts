/**
 * Operators' merchants of the order view and their webhook key pairs (stream orderMerchant-<id>; docs/orders-keys.md,
 * "Merchant keys"), through the write engine (the key lookups each command writes: aggregates.ts). The apiKey
 * `ak_{live|test}_{32 characters}` and the secretKey are generated here and answered once: the apiKey is stored as
 * its sha256, the secretKey encrypted under the context's key (bound to the merchant and key id).
 */
import {
  ordersError,
  type KeyEnvironment,
  type NewOrderKey,
  type OrderKeyStatus,
  type OrderMerchantCommand,
  type OrderMerchantKey,
} from '../../domain/orders/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { randomToken, secretDigest } from '../shared/signatures.js';
import { ordersAggregates } from './aggregates.js';
import { orderKeyDirectoryFor, secretBinding } from './webhook-keys.js';

/** Random characters of the apiKey kept after `ak_<env>_` to tell keys apart in listings. */
const shownRandomChars = 4;

/** A key pair as answered once, at issue or rotation: the only time either secret exists outside the caller. */
export interface IssuedOrderKeyView {
  keyId: number;
  environment: KeyEnvironment;
  apiKey: string;
  secretKey: string;
  prefix: string;
  rotatedFrom: number | null;
  issuedAt: string;
}

export interface OrderKeyView {
  keyId: number;
  environment: KeyEnvironment;
  prefix: string;
  status: OrderKeyStatus;
  rotatedFrom: number | null;
  issuedAt: string;
  retiresAt: string | null;
  revokedAt: string | null;
}

export interface OrderMerchantView {
  merchantId: string;
  name: string;
  registeredAt: string;
  keys: OrderKeyView[];
}

const keyView = (k: OrderMerchantKey): OrderKeyView => ({
  keyId: k.keyId,
  environment: k.environment,
  prefix: k.prefix,
  status: k.status,
  rotatedFrom: k.rotatedFrom,
  issuedAt: k.issuedAt,
  retiresAt: k.retiresAt,
  revokedAt: k.revokedAt,
});

export class OrderMerchantKeys {
  private readonly merchants;

  constructor(
    private readonly deps: {
      store: EventStore;
      ids: NumericIdGenerator;
      clock: Clock;
      cipher: SecretCipher;
      /** How long a rotated key keeps working. */
      rotationOverlapMs: number;
    },
  ) {
    this.merchants = ordersAggregates(deps).merchant;
  }

  async register(context: CommandContext, input: { merchantId: string; name: string }): Promise<OrderMerchantView> {
    const { state } = await this.run(context, input.merchantId, (now) => ({
      type: 'RegisterOrderMerchant',
      merchantId: input.merchantId,
      name: input.name,
      now,
    }));
    return state;
  }

  /** A first pair for `environment` (refused while one is active: rotate it). */
  async issue(context: CommandContext, merchantId: string, environment: KeyEnvironment): Promise<IssuedOrderKeyView> {
    const { apiKey, secretKey, key } = await this.newKey(merchantId, environment);
    await this.run(context, merchantId, (now) => ({ type: 'IssueOrderKey', merchantId, key, now }), true);
    return this.issuedView(merchantId, key.keyId, apiKey, secretKey);
  }

  /** The successor of an active key; the old one works until the overlap ends (default from the configuration). */
  async rotate(
    context: CommandContext,
    merchantId: string,
    keyId: number,
    overlapMs = this.deps.rotationOverlapMs,
  ): Promise<IssuedOrderKeyView> {
    const current = (await this.get(merchantId)).keys.find((k) => k.keyId === keyId);
    const { apiKey, secretKey, key } = await this.newKey(merchantId, current?.environment ?? 'test');
    const { digestOf } = await this.run(
      context,
      merchantId,
      (now) => ({ type: 'RotateOrderKey', merchantId, keyId, key, overlapMs, now }),
      true,
    );
    // This process honours the retirement at once (others within the directory's few seconds).
    orderKeyDirectoryFor(this.deps.store).forget(digestOf(keyId));
    return this.issuedView(merchantId, key.keyId, apiKey, secretKey);
  }

  /** Revoking a revoked key succeeds and changes nothing. */
  async revoke(context: CommandContext, merchantId: string, keyId: number): Promise<OrderKeyView> {
    const { state, digestOf } = await this.run(context, merchantId, (now) => ({
      type: 'RevokeOrderKey',
      merchantId,
      keyId,
      now,
    }));
    orderKeyDirectoryFor(this.deps.store).forget(digestOf(keyId));
    return state.keys.find((k) => k.keyId === keyId)!;
  }

  /** The merchant and its keys (never a secret or a digest), from its stream. */
  async get(merchantId: string): Promise<OrderMerchantView> {
    const state = await this.merchants.state(merchantId);
    if (state.status === 'NONE')
      throw ordersError('ORDER_MERCHANT_NOT_FOUND', `merchant ${merchantId} does not exist`, { merchantId });
    return { merchantId, name: state.name, registeredAt: state.registeredAt, keys: state.keys.map(keyView) };
  }

  private async issuedView(merchantId: string, keyId: number, apiKey: string, secretKey: string) {
    const key = (await this.get(merchantId)).keys.find((k) => k.keyId === keyId)!;
    return {
      keyId,
      environment: key.environment,
      apiKey,
      secretKey,
      prefix: key.prefix,
      rotatedFrom: key.rotatedFrom,
      issuedAt: key.issuedAt,
    };
  }

  private async newKey(merchantId: string, environment: KeyEnvironment) {
    const [keyId] = await this.deps.ids.next('orderMerchantKey');
    const apiKey = `ak_${environment}_${randomToken(32)}`;
    const secretKey = randomToken(48);
    const key: NewOrderKey = {
      keyId: keyId!,
      environment,
      prefix: apiKey.slice(0, `ak_${environment}_`.length + shownRandomChars),
      keyDigest: secretDigest(apiKey),
      secretCiphertext: this.deps.cipher.encrypt(secretKey, secretBinding(merchantId, keyId!)),
    };
    return { apiKey, secretKey, key };
  }

  /**
   * The merchant after the command. `showsSecrets`: the command answers secrets, which a resend (the same command
   * carried out before) cannot show again.
   */
  private async run(
    context: CommandContext,
    merchantId: string,
    command: (now: string) => OrderMerchantCommand,
    showsSecrets = false,
  ): Promise<{ state: OrderMerchantView; digestOf: (keyId: number) => string }> {
    const { state, replayed } = await this.merchants.handle(context, merchantId, command);
    if (replayed && showsSecrets)
      throw ordersError(
        'ORDER_KEY_SHOWN_ONCE',
        'this request was carried out before: the key pair it issued is shown only once; revoke it and issue another',
        { merchantId },
      );
    if (state.status === 'NONE') throw new Error('a merchant command answered without a merchant');
    const { keys } = state;
    return {
      state: { merchantId, name: state.name, registeredAt: state.registeredAt, keys: keys.map(keyView) },
      digestOf: (keyId) => keys.find((k) => k.keyId === keyId)!.keyDigest,
    };
  }
}
