/**
 * GET /api/payments/v1/payment-methods (docs/payments.md, "Payment methods list"): the key's terminal's enabled
 * methods that take `amount` in `currency`, each through its provider of smallest priority among those whose limits
 * fit, ordered by sortOrder, named in the caller's language. Read from the merchant as the directory keeps it (at
 * most a few seconds old in another process). With a user named, each method lists the user's saved cards for it.
 */
import {
  chooseProvider,
  type CurrencyLimit,
  type PaymentMethodType,
  type SavedPaymentMethod,
} from '../../domain/payments/index.js';
import type { PaymentCaller, PaymentMerchantDirectory } from './merchant-directory.js';

export type MethodLanguage = 'vi' | 'en';

export interface ListedPaymentMethod {
  paymentMethodId: string;
  code: string;
  name: string;
  type: PaymentMethodType;
  category: string;
  iconUrl: string;
  provider: { id: string; name: string; code: string };
  supportsTokenization: boolean;
  requiresRedirect: boolean;
  sortOrder: number;
  verificationAmount: number | null;
  currencies: CurrencyLimit[];
  /** Only when the caller named a user: the user's saved methods init can pay this amount with (an addition). */
  savedMethods?: SavedPaymentMethod[];
}

export class PaymentMethodListing {
  constructor(private readonly deps: { directory: PaymentMerchantDirectory }) {}

  async list(
    caller: PaymentCaller,
    amount: number,
    currency: string,
    language: MethodLanguage,
    saved?: readonly SavedPaymentMethod[],
  ): Promise<ListedPaymentMethod[]> {
    const merchant = await this.deps.directory.merchant(caller.merchantCode);
    const terminal = merchant?.terminals.find((t) => t.terminalId === caller.terminalId);
    if (!terminal) return [];
    return terminal.methods
      .filter((m) => m.enabled)
      .flatMap((m) => {
        const chosen = chooseProvider(m, currency, amount);
        if (!chosen) return [];
        const contract = m.providers.find((p) => p.providerCode === chosen.provider.code)!;
        // The user's cards of this method whose own provider is a contract of it taking the amount (as init checks).
        const usable = (s: SavedPaymentMethod) => {
          const limit = m.providers
            .find((p) => p.providerCode === s.provider.code)
            ?.currencies.find((c) => c.currency === currency);
          return s.paymentMethodCode === m.code && !!limit && amount >= limit.minAmount && amount <= limit.maxAmount;
        };
        return [
          {
            paymentMethodId: m.paymentMethodId,
            code: m.code,
            name: m.names[language],
            type: m.type,
            category: m.category,
            iconUrl: m.iconUrl,
            provider: { id: chosen.provider.id, name: chosen.provider.name, code: chosen.provider.code },
            supportsTokenization: m.supportsTokenization,
            requiresRedirect: m.requiresRedirect,
            sortOrder: m.sortOrder,
            verificationAmount: m.verificationAmount,
            currencies: contract.currencies.map((c) => ({ ...c })),
            ...(saved && { savedMethods: m.supportsTokenization ? saved.filter(usable) : [] }),
          },
        ];
      })
      .sort((a, b) => a.sortOrder - b.sortOrder || a.code.localeCompare(b.code));
  }
}
