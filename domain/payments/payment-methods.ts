/**
 * The payment hub's providers and the payment-method configuration of a terminal (docs/payments.md, "Onboarding"):
 * which methods a terminal offers, through which providers (smallest priority wins), for which amounts per currency,
 * and whether a held payment is captured at once. Pure rules; the operator API checks each field's form.
 */
import { paymentsError } from './errors.js';

export const paymentMethodTypes = ['CARD', 'WALLET', 'BANK_TRANSFER', 'QR'] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** A provider the hub can call (behind the provider port): its fixed id, code, name and what it can do. */
export interface ProviderInfo {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  /** Two-phase payments: authorize (HOLDING), then capture or void. */
  readonly supportsHolding: boolean;
  readonly methodTypes: readonly PaymentMethodType[];
}

/** The sandbox providers (docs/payments.md, "Providers"); a real adapter joins this list with its own code. */
export const providerCatalogue: readonly ProviderInfo[] = [
  {
    id: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e01',
    code: 'SANDBOX_CARD',
    name: 'Sandbox card gateway',
    supportsHolding: false,
    methodTypes: ['CARD'],
  },
  {
    id: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e05',
    code: 'SANDBOX_CARD_BACKUP',
    name: 'Sandbox backup card gateway',
    supportsHolding: false,
    methodTypes: ['CARD'],
  },
  {
    id: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
    code: 'SANDBOX_WALLET',
    name: 'Sandbox wallet',
    supportsHolding: true,
    methodTypes: ['WALLET'],
  },
  {
    id: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e03',
    code: 'SANDBOX_BANK',
    name: 'Sandbox bank transfer',
    supportsHolding: false,
    methodTypes: ['BANK_TRANSFER'],
  },
  {
    id: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e04',
    code: 'SANDBOX_QR',
    name: 'Sandbox QR',
    supportsHolding: false,
    methodTypes: ['QR'],
  },
];

export const providerByCode = (code: string): ProviderInfo | undefined =>
  providerCatalogue.find((p) => p.code === code);
export const providerById = (id: string): ProviderInfo | undefined => providerCatalogue.find((p) => p.id === id);

/** Amount limits of a method for one currency, in minor units, both inclusive. */
export interface CurrencyLimit {
  readonly currency: string;
  readonly minAmount: number;
  readonly maxAmount: number;
}

/** One provider contract of a method: the provider, its priority (smallest wins) and its limits per currency. */
export interface MethodProvider {
  readonly providerCode: string;
  readonly priority: number;
  readonly currencies: readonly CurrencyLimit[];
}

/** A method as a terminal offers it. */
export interface PaymentMethodConfig {
  /** e.g. CREDIT_CARD, WALLET, BANK_TRANSFER, QR_CODE. */
  readonly code: string;
  readonly type: PaymentMethodType;
  /** e.g. CREDIT, DEBIT. */
  readonly category: string;
  readonly names: { readonly vi: string; readonly en: string };
  readonly iconUrl: string;
  readonly supportsTokenization: boolean;
  readonly requiresRedirect: boolean;
  readonly verificationAmount: number | null;
  readonly sortOrder: number;
  /**
   * Capture right after authorization (true) or hold until confirm or cancel (false); null: not configurable,
   * because a provider of the method cannot hold (it always captures at once). Setting it where a provider cannot
   * hold is refused (the seed: "enabling it for a method whose provider does not support holding is rejected").
   */
  readonly autoCapture: boolean | null;
  /**
   * The provider's separate merchant id for 2D card payments (no 3-D Secure), if one is contracted; absent or null:
   * a request for 2D falls back to 3D (the seed). Only for CARD methods. Added after the first events: optional.
   */
  readonly twoDMerchantId?: string | null;
  readonly enabled: boolean;
  readonly providers: readonly MethodProvider[];
}

function invalid(field: string, message: string) {
  return paymentsError('INVALID_PAYMENT_SETUP', message, { field });
}

/** The rules between a method's fields and the provider catalogue; each field's own form was checked by the API. */
export function assertMethodConsistent(config: PaymentMethodConfig): void {
  if (config.providers.length === 0) throw invalid('providers', 'providers must name at least one provider');
  const priorities = new Set<number>();
  const codes = new Set<string>();
  config.providers.forEach((p, i) => {
    const provider = providerByCode(p.providerCode);
    if (!provider) throw invalid(`providers[${i}].providerCode`, `no provider ${p.providerCode}`);
    if (!provider.methodTypes.includes(config.type))
      throw invalid(`providers[${i}].providerCode`, `provider ${p.providerCode} does not take ${config.type} payments`);
    if (codes.has(p.providerCode)) throw invalid(`providers[${i}].providerCode`, `provider ${p.providerCode} twice`);
    if (priorities.has(p.priority))
      throw invalid(`providers[${i}].priority`, `two providers have priority ${p.priority}`);
    codes.add(p.providerCode);
    priorities.add(p.priority);
    if (p.currencies.length === 0)
      throw invalid(`providers[${i}].currencies`, 'currencies must name at least one currency');
    const currencies = new Set<string>();
    p.currencies.forEach((c, j) => {
      if (currencies.has(c.currency))
        throw invalid(`providers[${i}].currencies[${j}].currency`, `currency ${c.currency} twice`);
      currencies.add(c.currency);
      if (c.minAmount > c.maxAmount)
        throw invalid(`providers[${i}].currencies[${j}].maxAmount`, 'maxAmount must not be below minAmount');
    });
  });
  if (config.twoDMerchantId && config.type !== 'CARD')
    throw invalid('twoDMerchantId', 'a 2D merchant id applies to CARD methods only');
  if (config.autoCapture !== null) {
    const cannotHold = config.providers.find((p) => !providerByCode(p.providerCode)!.supportsHolding);
    if (cannotHold)
      throw invalid(
        'autoCapture',
        `auto-capture is configurable only where every provider can hold; ${cannotHold.providerCode} cannot (leave autoCapture null)`,
      );
  }
}

/** A method can hold (two-phase: HOLDING until confirm or cancel) only when every provider of it can. */
export const methodSupportsHolding = (config: Pick<PaymentMethodConfig, 'providers'>): boolean =>
  config.providers.every((p) => providerByCode(p.providerCode)?.supportsHolding === true);

/**
 * The card type a payment gets: 2D only when asked, for a card method that is not an ATM card and has a 2D merchant
 * id; otherwise 3D (the seed's fallback).
 */
export function effectiveCardType(config: PaymentMethodConfig, requested: '2D' | '3D' | undefined): '2D' | '3D' {
  return requested === '2D' && config.type === 'CARD' && config.category !== 'ATM' && !!config.twoDMerchantId
    ? '2D'
    : '3D';
}

/** The provider a method uses for `currency` and `amount`: among those whose limits take it, the smallest priority. */
export function chooseProvider(
  config: PaymentMethodConfig,
  currency: string,
  amount: number,
): { provider: ProviderInfo; limit: CurrencyLimit } | null {
  const fitting = config.providers
    .map((p) => ({ p, limit: p.currencies.find((c) => c.currency === currency) }))
    .filter(({ limit }) => limit && amount >= limit.minAmount && amount <= limit.maxAmount)
    .sort((a, b) => a.p.priority - b.p.priority);
  const first = fitting[0];
  return first ? { provider: providerByCode(first.p.providerCode)!, limit: first.limit! } : null;
}
