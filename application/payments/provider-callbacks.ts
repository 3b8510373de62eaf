/**
 * Providers' results reaching the hub (docs/payments.md, "Providers"): a callback signed with the provider's key over
 * its raw bytes, verified in constant time, then applied to the transaction as that provider's command. A callback
 * delivered twice appends nothing twice (its command is named by its callbackId); one that lost a race to another
 * outcome is refused (TRANSACTION_NOT_PROCESSABLE). An authorization may carry the token of a card the payer chose to
 * save (saved-methods.ts).
 */
import { paymentsError, providerByCode, type Transaction } from '../../domain/payments/index.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/event-ids.js';
import { hmacSha256Hex, signatureMatches } from '../shared/signatures.js';
import type { ProviderCallback, SandboxKeys } from './sandbox-providers.js';
import type { SavedPaymentMethods } from './saved-methods.js';
import type { TransactionService } from './transactions.js';

export class ProviderCallbacks {
  constructor(
    private readonly deps: {
      keys: Pick<SandboxKeys, 'provider'>;
      transactions: TransactionService;
      savedMethods: SavedPaymentMethods;
    },
  ) {}

  /** Refuses (INVALID_PROVIDER_CALLBACK) an unknown provider or a signature its key did not make over `raw`. */
  verify(providerCode: string, raw: string, signature: string | undefined): void {
    if (!providerByCode(providerCode)) throw paymentsError('INVALID_PROVIDER_CALLBACK', `no provider ${providerCode}`);
    const expected = hmacSha256Hex(this.deps.keys.provider(providerCode), raw);
    if (signature === undefined || !signatureMatches(signature, expected))
      throw paymentsError('INVALID_PROVIDER_CALLBACK', 'the callback signature does not match its body');
  }

  async apply(providerCode: string, callback: ProviderCallback): Promise<Transaction> {
    const t = await this.deps.transactions.load(callback.transactionId);
    if (t.provider.code !== providerCode || t.providerTransactionId !== callback.providerTransactionId)
      throw paymentsError('TRANSACTION_NOT_FOUND', 'no transaction of this provider has this providerTransactionId');
    const context: CommandContext = {
      commandId: nameBasedUuid(`provider-callback/${providerCode}/${callback.callbackId}`),
      correlationId: callback.transactionId,
      actor: { process: `provider:${providerCode}` },
    };
    const { transactions } = this.deps;
    switch (callback.result) {
      case 'AUTHORIZED': {
        // The payer chose to save the card: its token is sealed at once (the transaction's event keeps it encrypted).
        const savedCard =
          callback.tokenization && t.payer.kind === 'MINIAPP_USER'
            ? this.deps.savedMethods.sealCard(t, t.payer.userId, callback.tokenization)
            : undefined;
        return transactions.providerAuthorized(
          context,
          t.transactionId,
          callback.payment ?? { bankName: null, accountHolderName: null, cardNo: null },
          savedCard,
        );
      }
      case 'DECLINED':
        return transactions.providerDeclined(context, t.transactionId, {
          errorCode: callback.errorCode ?? 'DECLINED',
          errorMessage: callback.errorMessage ?? 'declined by the provider',
        });
      case 'CANCELLED':
        // The payer cancelled on the payment page: FAILED (the seed's IPN rule 2).
        return transactions.providerDeclined(context, t.transactionId, {
          errorCode: 'USER_CANCELLED',
          errorMessage: 'the payer cancelled on the payment page',
        });
    }
  }
}
