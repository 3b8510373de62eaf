import { expect } from 'chai';
import { hmacSha256Hex } from '../../../../application/shared/signatures.js';
import {
  refundSigningString,
  refundSnapshotSigningString,
  transactionSnapshotSigningString,
} from '../../../../domain/payments/signing-strings.js';

/**
 * The refund and snapshot vectors of docs/payments-refunds.md ("Signing"): strings written by hand from the seed's
 * signing table, hashes computed with `openssl dgst -sha256 -hmac` (not with this code).
 */
const secretKey = 'sk_test_4f3c2b1a0987654321fedcba';
const transactionId = '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f';
const pair = { orderId: 'ORD-1001', referenceId: 'REF-1001' };

const vectors: { name: string; built: string; raw: string; hash: string }[] = [
  {
    name: 'refund by transactionId, PARTIAL, no refundVpoint',
    built: refundSigningString(
      { transactionId },
      { amount: 40000, refundReferenceId: 'RF-0001', refundType: 'PARTIAL' },
      '1772359200',
    ),
    raw: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f|40000|RF-0001|PARTIAL|1772359200',
    hash: '8b2fc28e35bd3a8117b0f4042a9f165b7cbff2e5617bd33a3f63e7bd0f5cab71',
  },
  {
    name: 'refund by transactionId, refundType in lower case as sent, amount 150000.9 (integer part)',
    built: refundSigningString(
      { transactionId },
      { amount: 150000.9, refundReferenceId: 'RF-0002', refundType: 'full' },
      '1772359200',
    ),
    raw: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f|150000|RF-0002|full|1772359200',
    hash: '8b67c1b9ac351aee50a844021d2ff2c361b0ea69e727284351149742ce9165b3',
  },
  {
    name: 'refund by transactionId with refundVpoint 500 (before the timestamp)',
    built: refundSigningString(
      { transactionId },
      { amount: 40000, refundReferenceId: 'RF-0003', refundType: 'PARTIAL', refundVpoint: 500 },
      '1772359200',
    ),
    raw: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f|40000|RF-0003|PARTIAL|500|1772359200',
    hash: 'f93140a5fa467c5806620de09a2ecf46a4584b82bc1f9852d3b9548936e280b8',
  },
  {
    name: 'refund by the pair',
    built: refundSigningString(
      pair,
      { amount: 40000, refundReferenceId: 'RF-0001', refundType: 'PARTIAL' },
      '1772359200',
    ),
    raw: 'ORD-1001|REF-1001|40000|RF-0001|PARTIAL|1772359200',
    hash: 'b26f9b0273221bdb1dab0cdc16f01ca904cc5c436ec305a56e7418a453ffe20e',
  },
  {
    name: 'refund by the pair with refundVpoint',
    built: refundSigningString(
      pair,
      { amount: 40000, refundReferenceId: 'RF-0003', refundType: 'partial', refundVpoint: 500 },
      '1772359200',
    ),
    raw: 'ORD-1001|REF-1001|40000|RF-0003|partial|500|1772359200',
    hash: '4a513ec7c64362bac6b641c465a453542cfa08672342e0534c3a89e3851beb83',
  },
  {
    name: 'transaction snapshot, no optional field',
    built: transactionSnapshotSigningString(
      {
        orderId: 'ORD-2001',
        referenceId: 'REF-2001',
        amount: 150000,
        currency: 'VND',
        orderCreatedAt: 1767225600000,
        status: 'COMPLETED',
        processedAt: 1772359260123,
      },
      '1772359300',
    ),
    raw: 'ORD-2001|REF-2001|150000|VND|1767225600000|COMPLETED|1772359260123|1772359300',
    hash: 'efbd8d18f743e06bf8e7927bca9aec00c1f73b8583492f759cc56a30509228cc',
  },
  {
    name: 'transaction snapshot with branchId and businessUnitId, amount 99999.99',
    built: transactionSnapshotSigningString(
      {
        orderId: 'ORD-2002',
        referenceId: 'REF-2002',
        amount: 99999.99,
        currency: 'VND',
        orderCreatedAt: 1767225600000,
        businessUnitId: 'BU-02',
        branchId: 'BR-01',
        status: 'FAILED',
        processedAt: 1772359260123,
      },
      '1772359300',
    ),
    raw: 'ORD-2002|REF-2002|99999|VND|1767225600000|BR-01|BU-02|FAILED|1772359260123|1772359300',
    hash: '4b888b57c49bd99f4d54662c0cf3380742ad7e4566748737fb6b6171800832ae',
  },
  {
    name: 'transaction snapshot without orderCreatedAt (its place stays, empty)',
    built: transactionSnapshotSigningString(
      {
        orderId: 'ORD-2003',
        referenceId: 'REF-2003',
        amount: 150000,
        currency: 'VND',
        status: 'COMPLETED',
        processedAt: 1772359260123,
      },
      '1772359300',
    ),
    raw: 'ORD-2003|REF-2003|150000|VND||COMPLETED|1772359260123|1772359300',
    hash: '8434ddbc7fd1101a355869a6baa0151f2dc8bd9dafda3e1b94170044ee41d89a',
  },
  {
    name: 'refund snapshot',
    built: refundSnapshotSigningString(
      {
        transactionId,
        amount: 50000,
        currency: 'VND',
        refundReferenceId: 'RF-0009',
        refundType: 'partial',
        status: 'COMPLETED',
        processedAt: 1772359260123,
      },
      '1772359300',
    ),
    raw: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f|50000|VND|RF-0009|partial|COMPLETED|1772359260123|1772359300',
    hash: 'aa24b02842edf436eda3cc2f9515cd8fd7c6d4428f0b10f6c9615434b819e888',
  },
];

/** Non-ASCII ids, signed over their UTF-8 bytes (`bytes`: what openssl hashed; docs/payments-signing.md, "Ids"). */
const unicodeVectors: { name: string; built: string; raw: string; bytes: number; hash: string }[] = [
  {
    name: 'refund by a Vietnamese pair, refundReferenceId HT-Hoàn-tiền-01',
    built: refundSigningString(
      { orderId: 'ĐH-Xe-điện-0001', referenceId: 'TC-Hà-Nội-0001' },
      { amount: 40000, refundReferenceId: 'HT-Hoàn-tiền-01', refundType: 'PARTIAL' },
      '1772359200',
    ),
    raw: 'ĐH-Xe-điện-0001|TC-Hà-Nội-0001|40000|HT-Hoàn-tiền-01|PARTIAL|1772359200',
    bytes: 81,
    hash: 'faf9287d297076843f858c1e66b7c08293c84f5753101d1690fadeae8867e0cd',
  },
  {
    name: 'snapshot transaction with Vietnamese ids and branchId Hà-Nội',
    built: transactionSnapshotSigningString(
      {
        orderId: 'ĐH-Xe-điện-0003',
        referenceId: 'TC-Hà-Nội-0003',
        amount: 150000,
        currency: 'VND',
        orderCreatedAt: 1767225600000,
        branchId: 'Hà-Nội',
        status: 'COMPLETED',
        processedAt: 1772359260123,
      },
      '1772359300',
    ),
    raw: 'ĐH-Xe-điện-0003|TC-Hà-Nội-0003|150000|VND|1767225600000|Hà-Nội|COMPLETED|1772359260123|1772359300',
    bytes: 107,
    hash: '8a7e347a1bebdae845aa590c7643e08eeeab4ccaf196e0cbd5e0e5b293ef5752',
  },
  {
    name: 'snapshot refund with refundReferenceId HT-Hoàn-tiền-02',
    built: refundSnapshotSigningString(
      {
        transactionId,
        amount: 50000,
        currency: 'VND',
        refundReferenceId: 'HT-Hoàn-tiền-02',
        refundType: 'full',
        status: 'COMPLETED',
        processedAt: 1772359260123,
      },
      '1772359300',
    ),
    raw: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f|50000|VND|HT-Hoàn-tiền-02|full|COMPLETED|1772359260123|1772359300',
    bytes: 105,
    hash: '1bb68b7b9e64d8f9b8c4243bb9f91c83de18fbeed79038170f5d4f658e58f442',
  },
];

describe('payment hub signing strings: refunds and snapshots (docs/payments-refunds.md vectors)', () => {
  for (const v of vectors)
    it(v.name, () => {
      expect(v.built).to.equal(v.raw);
      expect(hmacSha256Hex(secretKey, v.raw)).to.equal(v.hash);
    });

  for (const v of unicodeVectors)
    it(`${v.name}: signed over its UTF-8 bytes`, () => {
      expect(v.built).to.equal(v.raw);
      expect(Buffer.byteLength(v.raw, 'utf8')).to.equal(v.bytes);
      expect(hmacSha256Hex(secretKey, v.built)).to.equal(v.hash);
    });

  it('the non-ASCII vectors are published in docs/payments-signing.md', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../../docs/payments-signing.md', import.meta.url), 'utf8');
    for (const v of unicodeVectors) {
      expect(doc, v.name).to.include(v.raw);
      expect(doc, v.name).to.include(v.hash);
    }
  });

  it('a refund string with refundVpoint differs from the one without (so an unsigned refundVpoint fails the hash)', () => {
    const without = refundSigningString(
      { transactionId },
      { amount: 1, refundReferenceId: 'R', refundType: 'FULL' },
      '1',
    );
    const withIt = refundSigningString(
      { transactionId },
      { amount: 1, refundReferenceId: 'R', refundType: 'FULL', refundVpoint: 0 },
      '1',
    );
    expect(without).to.equal(`${transactionId}|1|R|FULL|1`);
    expect(withIt).to.equal(`${transactionId}|1|R|FULL|0|1`);
  });
});
