/**
 * The merchant API keys the shop issues (X-Promotion-Api-Key), as every interface that takes them checks them: the
 * shop's own and the promotion checkout's (spec part B: "the key issued by the promotion service when the merchant is
 * created"). The shop provides the port (docs/conventions.md, "Modules").
 */
export type CredentialRefusal =
  | 'API_KEY_MISSING'
  | 'API_KEY_INVALID'
  | 'API_KEY_REVOKED'
  | 'API_KEY_EXPIRED'
  | 'MERCHANT_ID_MISSING'
  | 'MERCHANT_MISMATCH';

export type CredentialCheck = { ok: true; merchantId: string } | { ok: false; reason: CredentialRefusal };

export interface MerchantCredentialHeaders {
  apiKey?: string;
  merchantId?: string;
}

export interface MerchantApiKeys {
  /** The key must be active, unexpired and the merchant's named by X-Merchant-Id. */
  check(headers: MerchantCredentialHeaders): Promise<CredentialCheck>;
}
