/**
 * Saved payment methods (docs/payments.md, "Saved payment methods"): a card a host-app user chose to save on a
 * provider's page becomes a method of the user at the merchant (stream paymentUserMethods-<digest>), listed for the
 * merchant's backend, usable by init's `userPaymentMethodId` and removable. The provider's token is a credential: it
 * is encrypted here (AES-GCM, bound to the merchant, the user and the method) and opened only to charge it.
 */
import {
  activeSavedMethods,
  paymentsError,
  type PaymentMerchant,
  type SavedCard,
  type SavedPaymentMethod,
  type Transaction,
  type UserPaymentMethodsCommand,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import type { EventStore } from '../shared/event-store.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import type { UserLookup } from '../shared/user-lookup.js';
import type { PaymentCaller } from './merchant-directory.js';
import type { CardTokenization } from './provider-port.js';
import { paymentsAggregates } from './aggregates.js';

export { userMethodsStream } from './aggregates.js';

/** The id of the method a payment saves: named by the transaction, so a repeated save is the same method. */
export const savedMethodIdOf = (transactionId: string) => nameBasedUuid(`payments/saved-method/${transactionId}`);

const tokenBinding = (merchantCode: string, userId: string, userPaymentMethodId: string) =>
  `paymentUserMethod/${merchantCode}/${userId}/${userPaymentMethodId}`;

export class SavedPaymentMethods {
  private readonly methods;

  constructor(
    private readonly deps: { store: EventStore; clock: Clock; cipher: SecretCipher; users: () => UserLookup },
  ) {
    this.methods = paymentsAggregates(deps).userMethods;
  }

  /** The host-app user X-MiniApp-User-ID names, from the identity directory (USER_NOT_FOUND: 404 4302). */
  async user(miniAppUserId: string): Promise<string> {
    const user = await this.deps.users().find(miniAppUserId);
    if (!user) throw paymentsError('USER_NOT_FOUND', `no user ${miniAppUserId}`, { field: 'X-MiniApp-User-ID' });
    return user.userId;
  }

  /** The card a payer chose to save at `t`, its token sealed for the method it will become. */
  sealCard(t: Transaction, userId: string, tokenization: CardTokenization): SavedCard {
    const userPaymentMethodId = savedMethodIdOf(t.transactionId);
    return {
      userPaymentMethodId,
      encryptedToken: this.deps.cipher.encrypt(
        tokenization.providerToken,
        tokenBinding(t.merchantCode, userId, userPaymentMethodId),
      ),
      fingerprint: tokenization.fingerprint,
      cardNo: tokenization.cardNo,
      cardBrand: tokenization.cardBrand,
      expiry: tokenization.expiry,
    };
  }

  /**
   * Saves the card an authorized payment carries (nothing when it carries none). Named by the transaction: a repeat
   * (a provider's callback delivered again) saves nothing twice; the same card saved again stays one method.
   */
  async saveFromPayment(t: Transaction): Promise<void> {
    const card = t.savedCard;
    if (!card || t.payer.kind !== 'MINIAPP_USER') return;
    const { userId } = t.payer;
    const context: CommandContext = {
      commandId: nameBasedUuid(`payments/save-card/${t.transactionId}`),
      correlationId: t.transactionId,
      actor: { process: `provider:${t.provider.code}` },
    };
    await this.run(context, t.merchantCode, userId, (now) => ({
      type: 'SavePaymentMethod',
      method: {
        merchantCode: t.merchantCode,
        userId,
        userPaymentMethodId: card.userPaymentMethodId,
        paymentMethodCode: t.paymentMethod.code,
        methodType: 'CARD',
        provider: { ...t.provider },
        cardNo: card.cardNo,
        cardBrand: card.cardBrand,
        expiry: card.expiry,
        fingerprint: card.fingerprint,
        encryptedToken: card.encryptedToken,
        sourceTransactionId: t.transactionId,
        savedAt: now,
      },
      now,
    }));
  }

  /** The user's active saved methods at the caller's merchant, oldest first. */
  async list(caller: PaymentCaller, userId: string): Promise<readonly SavedPaymentMethod[]> {
    return activeSavedMethods(await this.load(caller.merchantCode, userId));
  }

  /** One active method of the user at the merchant; null when unknown, removed, or another user's. */
  async find(merchantCode: string, userId: string, userPaymentMethodId: string): Promise<SavedPaymentMethod | null> {
    const id = userPaymentMethodId.toLowerCase();
    return activeSavedMethods(await this.load(merchantCode, userId)).find((m) => m.userPaymentMethodId === id) ?? null;
  }

  /** The provider token of a method, opened to charge it. */
  tokenOf(merchantCode: string, userId: string, method: SavedPaymentMethod): string {
    return this.deps.cipher.decrypt(
      method.encryptedToken,
      tokenBinding(merchantCode, userId, method.userPaymentMethodId),
    );
  }

  /** Removes a method for the user (SAVED_METHOD_NOT_FOUND when the user has no such active method). */
  async remove(context: CommandContext, caller: PaymentCaller, userId: string, userPaymentMethodId: string) {
    await this.run(context, caller.merchantCode, userId, (now) => ({
      type: 'RemovePaymentMethod',
      userPaymentMethodId: userPaymentMethodId.toLowerCase(),
      removedBy: `${caller.merchantCode}/${caller.terminalId}`,
      now,
    }));
  }

  /** One command on the user's saved methods at the merchant, through the write engine. */
  private run(
    context: CommandContext,
    merchantCode: string,
    userId: string,
    command: (now: string) => UserPaymentMethodsCommand,
  ) {
    return this.methods.handle(context, { merchantCode, userId }, command);
  }

  private load(merchantCode: string, userId: string) {
    return this.methods.state({ merchantCode, userId });
  }
}

/**
 * The method a saved card pays with on the caller's terminal: the same method code, enabled, still tokenizing, with
 * the card's provider among its contracts and the amount within that provider's limits; else 4001 naming
 * userPaymentMethodId (the seed's init codes).
 */
export function savedMethodOnTerminal(
  merchant: PaymentMerchant,
  caller: PaymentCaller,
  saved: SavedPaymentMethod,
  amount: number,
  currency: string,
) {
  const invalid = (message: string) =>
    paymentsError('INVALID_PAYMENT_REQUEST', `userPaymentMethodId: ${message}`, { field: 'userPaymentMethodId' });
  const terminal = merchant.terminals.find((t) => t.terminalId === caller.terminalId)!;
  const method = terminal.methods.find((m) => m.code === saved.paymentMethodCode && m.enabled);
  if (!method || !method.supportsTokenization)
    throw invalid(`this terminal takes no saved ${saved.paymentMethodCode} payments`);
  const contract = method.providers.find((p) => p.providerCode === saved.provider.code);
  if (!contract) throw invalid(`provider ${saved.provider.code} of the saved card does not serve this terminal`);
  const limit = contract.currencies.find((c) => c.currency === currency);
  if (!limit) throw invalid(`${method.code} through ${saved.provider.code} does not take ${currency}`);
  if (amount < limit.minAmount || amount > limit.maxAmount)
    throw paymentsError(
      'INVALID_PAYMENT_REQUEST',
      `amount: must be from ${limit.minAmount} to ${limit.maxAmount} ${currency}`,
      {
        field: 'amount',
      },
    );
  return method;
}
