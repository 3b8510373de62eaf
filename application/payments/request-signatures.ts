/**
 * The hub's checks of a signed request (docs/payments-signing.md): the X-Timestamp window, then the secureHash over
 * the operation's raw string with any secretKey of the merchant usable now (the current one and, after a rotation,
 * the previous one for its overlap window), compared in constant time.
 */
import { paymentsError, usableSecrets } from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { hmacSha256Hex, signatureMatches } from '../shared/signatures.js';
import type { PaymentCaller, PaymentMerchantDirectory } from './merchant-directory.js';

/** What a merchant secret is bound to when encrypted: it opens only on its own merchant and id. */
export const secretBinding = (merchantCode: string, secretId: string) => `paymentMerchant/${merchantCode}/${secretId}`;

export class RequestSignatures {
  constructor(
    private readonly deps: {
      directory: PaymentMerchantDirectory;
      cipher: SecretCipher;
      clock: Clock;
      timestampWindowSeconds: number;
    },
  ) {}

  /** X-Timestamp (Unix seconds, as sent) within the window of the hub's clock, either way; else STALE_TIMESTAMP. */
  checkTimestamp(timestamp: string): void {
    const seconds = Number(timestamp);
    const skew = Math.abs(this.deps.clock.now().getTime() / 1000 - seconds);
    if (skew > this.deps.timestampWindowSeconds)
      throw paymentsError(
        'STALE_TIMESTAMP',
        `X-Timestamp is more than ${this.deps.timestampWindowSeconds} seconds from the hub's clock`,
      );
  }

  /** Refuses (INVALID_SIGNATURE) a secureHash no usable secretKey of the caller's merchant makes over `raw`. */
  async verify(caller: PaymentCaller, raw: string, secureHash: string): Promise<void> {
    const merchant = await this.deps.directory.merchant(caller.merchantCode);
    if (merchant) {
      for (const secret of usableSecrets(merchant, this.deps.clock.now().toISOString())) {
        const key = this.deps.cipher.decrypt(
          secret.encryptedSecret,
          secretBinding(merchant.merchantCode, secret.secretId),
        );
        if (signatureMatches(secureHash, hmacSha256Hex(key, raw))) return;
      }
    }
    throw paymentsError('INVALID_SIGNATURE', 'secureHash does not match the request');
  }
}
