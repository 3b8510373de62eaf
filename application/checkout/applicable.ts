/**
 * `applicable` (spec part B): every promotion of the caller's wallet the orders could use, each with whether it is
 * eligible and, if not, why (docs/checkout.md, "applicable"). Reads the wallet read model (eventually consistent:
 * a promotion issued a moment ago may be missing; reserve decides on the aggregates).
 */
import {
  eligibility,
  usableAtMerchant,
  type CheckoutOrder,
  type Ineligibility,
  type MasterRules,
  type UsageSoFar,
  type WalletPromotion,
} from '../../domain/checkout/index.js';
import type { Clock } from '../shared/clock.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { codeBinding } from './checkout-service.js';

/** One wallet row as the read model gives it: the promotion, its master's rules and the uses taken so far. */
export interface WalletEntry {
  promotion: WalletPromotion & { promotionMasterId: number; encryptedCode: string; encryptedPin: string | null };
  master: MasterRules & { promotionMasterId: number };
  usage: UsageSoFar;
}

export interface WalletReadModel {
  /**
   * The user's promotions that are ISSUED, RESERVED or EXPIRED and usable at `merchantId` (`usableAtMerchant`: the
   * platform's and that merchant's), soonest to end first, at most `limit`.
   */
  entries(userId: string, merchantId: string, limit: number): Promise<WalletEntry[]>;
}

export interface ApplicablePromotion {
  entry: WalletEntry;
  code: string;
  pin: string | null;
  eligible: boolean;
  reason: Ineligibility | null;
  /** What it would take off these orders (0 when not eligible). */
  discount: number;
}

/** Most promotions one answer lists. */
export const maxApplicable = 200;

export class ApplicableQuery {
  constructor(private readonly deps: { wallet: WalletReadModel; clock: Clock; codes: SecretCipher }) {}

  /**
   * The wallet of `caller.userId` as `caller.merchantId` may see it: only promotions usable at that merchant, so the
   * codes and pins of another merchant's never reach it (docs/checkout.md, "Who reaches what"). The read model
   * selects them (so the limit counts only those); the domain's rule is applied again here, the one the answer obeys.
   */
  async applicable(
    caller: { userId: string; merchantId: string },
    orders: readonly CheckoutOrder[],
  ): Promise<ApplicablePromotion[]> {
    const now = this.deps.clock.now().toISOString();
    const entries = (await this.deps.wallet.entries(caller.userId, caller.merchantId, maxApplicable)).filter((e) =>
      usableAtMerchant(e.master.scope, caller.merchantId),
    );
    const listed = entries.map((entry) => {
      const verdict = eligibility(entry.promotion, entry.master, orders, now, entry.usage);
      const { promotionId, encryptedCode, encryptedPin } = entry.promotion;
      return {
        entry,
        code: this.deps.codes.decrypt(encryptedCode, codeBinding(promotionId)),
        pin: encryptedPin === null ? null : this.deps.codes.decrypt(encryptedPin, codeBinding(promotionId, 'pin')),
        eligible: verdict.eligible,
        reason: verdict.eligible ? null : verdict.reason,
        discount: verdict.eligible ? verdict.amount : 0,
      };
    });
    // Usable first, the biggest discount first; then the rest as the wallet orders them (soonest to end first).
    return [
      ...listed.filter((p) => p.eligible).sort((a, b) => b.discount - a.discount),
      ...listed.filter((p) => !p.eligible),
    ];
  }
}
