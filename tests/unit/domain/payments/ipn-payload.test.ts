/**
 * The IPN verification string and secureHash against the hand-written vector of docs/ipn.md ("Signing"), checked by
 * the partner's verifier (examples/ipn-receiver/verify-ipn.ts) and by the hub's signer; and what each event notifies.
 */
import { expect } from 'chai';
import { computeIpnHash, ipnSigningString, verifyIpn } from '../../../../examples/ipn-receiver/verify-ipn.js';
import { signIpn } from '../../../../application/payments/index.js';
import { ipnContentFor, ipnVerificationString, type IpnTransactionFacts } from '../../../../domain/payments/index.js';

const secretKey = 'phs_demoSecretKeyForTheIpnVector0000000000000000';
const vector = {
  orderId: 'ORD-1001',
  transactionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  transactionType: 'PAYMENT',
  amount: 150000,
  status: 'COMPLETED',
  processedAt: 1772359260123,
};
// printf '%s' 'ORD-1001|7c9e…|PAYMENT|150000|COMPLETED|1772359260123' | openssl dgst -sha256 -hmac '<secretKey>'
const expected = 'ecda05c5b58a036968b06f746dce5908b7059e29b4ca9763e60abb1a4c08a8a3';

const facts: IpnTransactionFacts = {
  transactionId: vector.transactionId,
  merchantCode: 'demo-shop',
  orderId: 'ORD-1001',
  referenceId: 'REF-1001',
  amount: 150000,
  currency: 'VND',
  methodCode: 'WALLET',
  providerCode: 'SANDBOX_WALLET',
  orderInfo: { customerName: 'Nguyen Van A', orderCreatedAt: 1772359200000 },
  providerTransactionId: 'PTX-1',
  providerInvoiceId: null,
  payment: null,
};

describe('IPN payload and signing', () => {
  it('builds the verification string of the seed', () => {
    expect(ipnSigningString(vector)).to.equal(
      'ORD-1001|7c9e6679-7425-40de-944b-e07fc1f90ae7|PAYMENT|150000|COMPLETED|1772359260123',
    );
    expect(ipnVerificationString(vector as never)).to.equal(ipnSigningString(vector));
  });

  it('the verifier computes and accepts the vector, and refuses any change, in either case of hex', () => {
    expect(computeIpnHash(vector, secretKey)).to.equal(expected);
    expect(verifyIpn({ ...vector, secureHash: expected }, secretKey)).to.equal(true);
    expect(verifyIpn({ ...vector, secureHash: expected.toUpperCase() }, secretKey)).to.equal(true);
    expect(verifyIpn({ ...vector, status: 'FAILED', secureHash: expected }, secretKey)).to.equal(false);
    expect(verifyIpn({ ...vector, secureHash: expected }, `${secretKey}x`)).to.equal(false);
    expect(verifyIpn({ ...vector, secureHash: expected.slice(2) }, secretKey)).to.equal(false);
    expect(verifyIpn({ ...vector, secureHash: 42 }, secretKey)).to.equal(false);
  });

  it('the hub signs a COMPLETED notification exactly as the vector', () => {
    const content = ipnContentFor(facts, {
      type: 'TransactionCompleted',
      data: {
        transactionId: vector.transactionId,
        via: 'AUTO_CAPTURE',
        payment: null,
        completedAt: '2026-03-01T10:01:00.123Z',
      },
    })!;
    expect(content.processedAt).to.equal(1772359260123);
    expect(content).to.include({ transactionType: 'PAYMENT', status: 'COMPLETED', paymentMethod: 'E_WALLET' });
    expect(signIpn(content, secretKey).secureHash).to.equal(expected);
  });

  it('maps each event: HOLDING, FAILED, CANCEL (a hold timeout as CANCELLED with HOLD_TIMEOUT); no IPN for PROCESSING', () => {
    const id = vector.transactionId;
    expect(
      ipnContentFor(facts, {
        type: 'TransactionHeld',
        data: {
          transactionId: id,
          payment: { bankName: null, accountHolderName: 'A', cardNo: null },
          holdExpiresAt: '2026-03-08T00:00:00.000Z',
          heldAt: '2026-03-01T00:00:00.000Z',
        },
      }),
    ).to.include({ transactionType: 'PAYMENT', status: 'HOLDING', accountHolderName: 'A' });
    expect(
      ipnContentFor(facts, {
        type: 'TransactionFailed',
        data: {
          transactionId: id,
          reason: 'ABANDONED',
          errorCode: 'ABANDONED',
          errorMessage: 'no result',
          failedAt: '2026-03-01T04:00:00.000Z',
        },
      }),
    ).to.include({ transactionType: 'PAYMENT', status: 'FAILED', errorCode: 'ABANDONED' });
    expect(
      ipnContentFor(facts, {
        type: 'TransactionCancelled',
        data: {
          transactionId: id,
          by: 'HOLD_TIMEOUT',
          status: 'TIMEOUT',
          reason: 'hold expired',
          requestedBy: null,
          cancelledAt: '2026-03-08T00:00:00.000Z',
        },
      }),
    ).to.include({ transactionType: 'CANCEL', status: 'CANCELLED', errorCode: 'HOLD_TIMEOUT' });
    expect(
      ipnContentFor(facts, {
        type: 'TransactionProcessing',
        data: {
          transactionId: id,
          providerTransactionId: 'P',
          providerInvoiceId: null,
          processingAt: '2026-03-01T00:00:00.000Z',
        },
      }),
    ).to.equal(null);
  });
});
