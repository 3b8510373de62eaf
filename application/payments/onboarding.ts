/**
 * Operators' onboarding of payment merchants (stream paymentMerchant-<code>), through the write engine
 * (docs/payments.md, "Onboarding"). A paymentApiKey is generated here, answered once and stored as its sha256 (with
 * its lookup stream claimed in the same append: aggregates.ts); a secretKey is generated here, answered once and stored encrypted,
 * bound to its merchant and id. A resend of a command that generated either is refused (CREDENTIAL_SHOWN_ONCE).
 */
import { randomUUID } from 'node:crypto';
import {
  paymentsError,
  type PaymentMerchant,
  type PaymentMerchantCommand,
  type PaymentMethodConfig,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import type { OutboundTargets } from '../shared/outbound-targets.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { randomToken, secretDigest } from '../shared/signatures.js';
import type { PaymentMerchantDirectory } from './merchant-directory.js';
import { paymentsAggregates } from './aggregates.js';
import { secretBinding } from './request-signatures.js';

/** Keys start with this, so a leaked one is easy to recognise; the next 6 characters are kept to tell keys apart. */
const keyPrefix = 'phk_';
const secretPrefix = 'phs_';

export interface OnboardMerchantInput {
  merchantCode: string;
  name: string;
  ipnUrl: string;
  maxIpnRetries: number;
}

/** Answered once: the only time a raw key or secret exists outside the caller. */
export interface IssuedPaymentApiKey {
  apiKeyId: string;
  terminalId: string;
  paymentApiKey: string;
  prefix: string;
  expiresAt: string | null;
}

export interface IssuedSecretKey {
  secretId: string;
  secretKey: string;
  /** After a rotation: until when the previous secretKey still verifies. */
  previousValidUntil: string | null;
}

export class PaymentOnboarding {
  private readonly merchants;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      cipher: SecretCipher;
      directory: PaymentMerchantDirectory;
      secretOverlapSeconds: number;
      /** The egress policy: an ipnUrl it would refuse is refused here, before it is stored (docs/outbound.md). */
      targets: OutboundTargets;
    },
  ) {
    this.merchants = paymentsAggregates(deps).merchant;
  }

  /**
   * Refuses (INVALID_PAYMENT_SETUP, field ipnUrl) a postback URL the outbound client would never send to: a loopback,
   * private, link-local or metadata address or name, or plain http in production. A name that resolves to such an
   * address is refused when the hub connects (the attempt is REJECTED; docs/ipn.md).
   */
  private assertSendable(ipnUrl: string | undefined): void {
    if (ipnUrl === undefined) return;
    const refused = this.deps.targets.refusal(ipnUrl);
    if (refused)
      throw paymentsError('INVALID_PAYMENT_SETUP', `ipnUrl: the hub does not send there (${refused})`, {
        field: 'ipnUrl',
      });
  }

  async onboard(
    context: CommandContext,
    input: OnboardMerchantInput,
  ): Promise<{ merchant: PaymentMerchant; secret: IssuedSecretKey }> {
    this.assertSendable(input.ipnUrl);
    const secret = this.newSecret(input.merchantCode);
    const merchant = await this.run(context, input.merchantCode, (now) => ({
      type: 'OnboardMerchant',
      ...input,
      secret: secret.stored,
      by: operatorOf(context),
      now,
    }));
    return { merchant, secret: { secretId: secret.stored.secretId, secretKey: secret.raw, previousValidUntil: null } };
  }

  async changeIpn(
    context: CommandContext,
    merchantCode: string,
    input: { ipnUrl?: string; maxIpnRetries?: number },
  ): Promise<PaymentMerchant> {
    this.assertSendable(input.ipnUrl);
    return this.run(
      context,
      merchantCode,
      (now) => ({ type: 'ChangeIpnSettings', ...input, by: operatorOf(context), now }),
      true,
    );
  }

  async rotateSecret(
    context: CommandContext,
    merchantCode: string,
    overlapSeconds = this.deps.secretOverlapSeconds,
  ): Promise<IssuedSecretKey> {
    const secret = this.newSecret(merchantCode);
    const merchant = await this.run(context, merchantCode, (now) => ({
      type: 'RotateSecretKey',
      secret: secret.stored,
      overlapSeconds,
      by: operatorOf(context),
      now,
    }));
    const previous = merchant.secrets.at(-2);
    return {
      secretId: secret.stored.secretId,
      secretKey: secret.raw,
      previousValidUntil: previous?.validUntil ?? null,
    };
  }

  async addTerminal(
    context: CommandContext,
    merchantCode: string,
    input: { terminalId: string; name: string },
  ): Promise<PaymentMerchant> {
    return this.run(
      context,
      merchantCode,
      (now) => ({ type: 'AddTerminal', ...input, by: operatorOf(context), now }),
      true,
    );
  }

  async issueApiKey(
    context: CommandContext,
    merchantCode: string,
    terminalId: string,
    input: { expiresAt: string | null },
  ): Promise<IssuedPaymentApiKey> {
    const raw = keyPrefix + randomToken(40);
    const apiKeyId = randomUUID();
    await this.run(context, merchantCode, (now) => ({
      type: 'IssuePaymentApiKey',
      terminalId,
      apiKey: {
        apiKeyId,
        prefix: raw.slice(0, keyPrefix.length + 6),
        keyDigest: secretDigest(raw),
        expiresAt: input.expiresAt,
      },
      by: operatorOf(context),
      now,
    }));
    return {
      apiKeyId,
      terminalId,
      paymentApiKey: raw,
      prefix: raw.slice(0, keyPrefix.length + 6),
      expiresAt: input.expiresAt,
    };
  }

  async revokeApiKey(
    context: CommandContext,
    merchantCode: string,
    terminalId: string,
    apiKeyId: string,
  ): Promise<PaymentMerchant> {
    const merchant = await this.run(
      context,
      merchantCode,
      (now) => ({ type: 'RevokePaymentApiKey', terminalId, apiKeyId, by: operatorOf(context), now }),
      true,
    );
    const key = merchant.terminals
      .find((t) => t.terminalId === terminalId)
      ?.apiKeys.find((k) => k.apiKeyId === apiKeyId);
    if (key) this.deps.directory.forgetKey(key.keyDigest);
    return merchant;
  }

  /** Adds or replaces the terminal's method of `method.code`; its id is stable per merchant, terminal and code. */
  async configureMethod(
    context: CommandContext,
    merchantCode: string,
    terminalId: string,
    method: PaymentMethodConfig,
  ): Promise<PaymentMerchant> {
    const paymentMethodId = nameBasedUuid(`paymentMethod/${merchantCode}/${terminalId}/${method.code}`);
    return this.run(
      context,
      merchantCode,
      (now) => ({ type: 'ConfigurePaymentMethod', terminalId, paymentMethodId, method, by: operatorOf(context), now }),
      true,
    );
  }

  /** The merchant as its stream says (strongly consistent). */
  async get(merchantCode: string): Promise<PaymentMerchant> {
    const state = await this.merchants.state(merchantCode);
    if (state.status === 'NONE')
      throw paymentsError('PAYMENT_MERCHANT_NOT_FOUND', `no payment merchant ${merchantCode}`, { merchantCode });
    return state;
  }

  private newSecret(merchantCode: string) {
    const raw = secretPrefix + randomToken(48);
    const secretId = randomUUID();
    return {
      raw,
      stored: { secretId, encryptedSecret: this.deps.cipher.encrypt(raw, secretBinding(merchantCode, secretId)) },
    };
  }

  /** The merchant after the command; a resend of a command that generated a credential cannot answer it again. */
  private async run(
    context: CommandContext,
    merchantCode: string,
    command: (now: string) => PaymentMerchantCommand,
    replayable = false,
  ): Promise<PaymentMerchant> {
    const { state, replayed } = await this.merchants.handle(context, merchantCode, command);
    this.deps.directory.forgetMerchant(merchantCode);
    if (replayed && !replayable)
      throw paymentsError(
        'CREDENTIAL_SHOWN_ONCE',
        'this request was carried out before; the key or secret it generated is shown only once: revoke or rotate it',
        { merchantCode },
      );
    if (state.status === 'NONE') throw new Error('a payment merchant command answered without a merchant');
    return state;
  }
}

/** The operator named by the request (every onboarding command is an operator's). */
export function operatorOf(context: CommandContext): string {
  const actor = context.actor as { operator?: unknown };
  return typeof actor.operator === 'string' ? actor.operator : 'system';
}
