/**
 * What a transaction records at init (the seed's init payment fields, checked and enriched) and what a provider
 * reports about the payer's instrument. docs/payments.md, "Transactions".
 */

export interface OrderInfoItem {
  readonly name: string;
  readonly sku: string;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly description: string;
  readonly categoryCode?: string;
  readonly categoryName?: string;
}

export interface OrderInfo {
  readonly customerName?: string;
  readonly customerEmail?: string;
  readonly customerPhone?: string;
  /** Unix milliseconds. */
  readonly orderCreatedAt?: number;
  readonly notes?: string;
  readonly items?: readonly OrderInfoItem[];
}

/** Who pays: a host-app user (X-MiniApp-User-ID, enriched from the identity directory) or the merchant's own id. */
export type TransactionPayer =
  | { readonly kind: 'MINIAPP_USER'; readonly userId: string; readonly name: string | null }
  | { readonly kind: 'EXTERNAL_USER'; readonly externalUserId: string }
  | { readonly kind: 'NONE' };

export interface TransactionDetails {
  readonly transactionId: string;
  readonly merchantCode: string;
  readonly merchantName: string;
  readonly terminalId: string;
  readonly orderId: string;
  readonly referenceId: string;
  /** Minor units: the integer part of what the request sent. */
  readonly amount: number;
  readonly currency: string;
  readonly description: string;
  readonly paymentMethod: { readonly id: string; readonly code: string; readonly name: string; readonly type: string };
  readonly provider: { readonly id: string; readonly code: string; readonly name: string };
  readonly cardType: '2D' | '3D';
  /** Effective: capture at once (true) or hold until confirm or cancel (false). */
  readonly skipHolding: boolean;
  /** The saved payment method the payment uses (saved-methods.ts), if any. */
  readonly userPaymentMethodId: string | null;
  /** Paid with a saved card: its masked number (the provider's page shows it). Added with saved methods: optional. */
  readonly savedCardNo?: string | null;
  /**
   * The payer may save the card at this payment: a CARD method that supports tokenization, a host-app user, not
   * already a saved card. Added with saved methods: optional (absent: false).
   */
  readonly tokenizable?: boolean;
  readonly sellerMerchantId: string | null;
  readonly businessUnitId: string | null;
  readonly branchId: string | null;
  readonly returnUrl: string | null;
  readonly providerData: string | null;
  readonly orderInfo: OrderInfo | null;
  readonly payer: TransactionPayer;
  readonly miniAppId: string | null;
  /** X-Auth-Audience as sent (the platform the payer came from), kept for trace. Added later: optional. */
  readonly authAudience?: string | null;
  /** When an unfinished payment is abandoned (FAILED): createdAt + the abandonment delay. */
  readonly expiresAt: string;
  readonly createdAt: string;
  /** The payment session whose PAYMENT line this transaction pays (docs/payments-sessions.md). Added later: optional. */
  readonly paymentSessionId?: string | null;
}

/** What the provider tells about the instrument; the card number only ever masked. */
export interface TransactionPaymentDetails {
  readonly bankName: string | null;
  readonly accountHolderName: string | null;
  readonly cardNo: string | null;
}

/** Method types whose payments name no instrument: the seed's "null for wallets/QR". */
const anonymousMethodTypes: ReadonlySet<string> = new Set(['WALLET', 'QR']);

/**
 * The instrument a transaction of `methodType` records: as the provider reported it, except for wallets and QR,
 * where bankName, accountHolderName and cardNo are null whatever a provider says (docs/ipn.md, "Fields").
 */
export function recordedInstrument(methodType: string, payment: TransactionPaymentDetails): TransactionPaymentDetails;
export function recordedInstrument(
  methodType: string,
  payment: TransactionPaymentDetails | null,
): TransactionPaymentDetails | null;
export function recordedInstrument(
  methodType: string,
  payment: TransactionPaymentDetails | null,
): TransactionPaymentDetails | null {
  if (payment === null || !anonymousMethodTypes.has(methodType)) return payment;
  return { bankName: null, accountHolderName: null, cardNo: null };
}

/**
 * A card the payer chose to save while paying, as the hub keeps it: the provider's token encrypted (only the hub can
 * read it back, to charge it), the provider's fingerprint of the card (the same card saved twice is one method), and
 * the card only masked. docs/payments.md, "Saved payment methods".
 */
export interface SavedCard {
  readonly userPaymentMethodId: string;
  readonly encryptedToken: string;
  readonly fingerprint: string;
  readonly cardNo: string;
  readonly cardBrand: string;
  /** MM/YY, as the payer entered it; null when the provider did not say. */
  readonly expiry: string | null;
}
