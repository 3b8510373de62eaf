import { expect } from 'chai';
import { hmacSha256Hex } from '../../../../application/shared/signatures.js';
import {
  sessionCancelSigningString,
  sessionCreateSigningString,
} from '../../../../domain/payments/session-signing-strings.js';

/**
 * The payment sessions' signing strings (docs/payments-sessions.md, docs/payments-signing.md): written by hand from
 * the seed's "Order creation by mini-app backend" row; the hash computed with `openssl dgst -sha256 -hmac`.
 */
describe('payment session signing strings', () => {
  it('create: orderId|referenceId|originalAmount|currency|createdAt, amounts as integer parts', () => {
    const raw = sessionCreateSigningString({
      orderId: 'ORD-1',
      referenceId: 'REF-1',
      originalAmount: 150000.99,
      currency: 'VND',
      createdAt: 1772359200000,
    });
    expect(raw).to.equal('ORD-1|REF-1|150000|VND|1772359200000');
    expect(hmacSha256Hex('phs_demoSecretKeyForTheIpnVector0000000000000000', raw)).to.equal(
      '901274ea6dde9f6b485e0bd32f3e720ab1401f8b1bc0cd83147fbe1ae14b6d67',
    );
  });

  it('cancel: paymentSessionId|timestamp, else orderId|referenceId|timestamp', () => {
    expect(sessionCancelSigningString({ paymentSessionId: 'PS-1' }, '1772359200')).to.equal('PS-1|1772359200');
    expect(sessionCancelSigningString({ orderId: 'ORD-1', referenceId: 'REF-1' }, '1772359200')).to.equal(
      'ORD-1|REF-1|1772359200',
    );
  });
});
