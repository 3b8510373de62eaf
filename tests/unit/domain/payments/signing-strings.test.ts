import { expect } from 'chai';
import { hmacSha256Hex } from '../../../../application/shared/signatures.js';
import {
  cancelConfirmSigningString,
  initSigningString,
  removeSavedMethodSigningString,
} from '../../../../domain/payments/signing-strings.js';

/**
 * The published vectors of docs/payments-signing.md: strings written by hand from the seed's signing table, hashes
 * computed with `openssl dgst -sha256 -hmac` (not with this code), so a drift in either fails here.
 */
const secretKey = 'sk_test_4f3c2b1a0987654321fedcba';

const vectors: { name: string; built: string; raw: string; hash: string }[] = [
  {
    name: 'init, no optional field',
    built: initSigningString({
      orderId: 'ORD-1001',
      referenceId: 'REF-1001',
      amount: 150000,
      currency: 'VND',
      orderCreatedAt: 1767225600000,
    }),
    raw: 'ORD-1001|REF-1001|150000|VND|1767225600000',
    hash: 'cd52d21dd271f4a63a935d0a1482408379a8b2abf0d44ba7f6d4fb43f95f7cec',
  },
  {
    name: 'init, every optional field, in the stated order',
    built: initSigningString({
      orderId: 'ORD-1001',
      referenceId: 'REF-1001',
      amount: 150000,
      currency: 'VND',
      orderCreatedAt: 1767225600000,
      skipHolding: false,
      paymentType: '2D',
      sellerMerchantId: 'SELLER-03',
      businessUnitId: 'BU-02',
      branchId: 'BR-01',
    }),
    raw: 'ORD-1001|REF-1001|150000|VND|1767225600000|BR-01|BU-02|SELLER-03|2D|false',
    hash: '01466477fdd79909784103eced640d408e2f88128251fd6ab85d83e7d985ebb9',
  },
  {
    name: 'init, a float amount signs its integer part, no orderInfo.orderCreatedAt leaves its place empty',
    built: initSigningString({ orderId: 'ORD-1002', referenceId: 'REF-1002', amount: 99999.99, currency: 'USD' }),
    raw: 'ORD-1002|REF-1002|99999|USD|',
    hash: 'c6e248fbbbe6a1d66c8de1524a51322775ad8115cec215f13ffa79ec896bdeb0',
  },
  {
    name: 'init, some optional fields: only those present are appended',
    built: initSigningString({
      orderId: 'ORD-1003',
      referenceId: 'REF-1003',
      amount: 250000,
      currency: 'VND',
      orderCreatedAt: 1767225600000,
      businessUnitId: 'BU-02',
      skipHolding: true,
    }),
    raw: 'ORD-1003|REF-1003|250000|VND|1767225600000|BU-02|true',
    hash: 'e11450decb3d28b5cb04e95e8f42729b4b67e6a1d28d251edabc92f22a8ee813',
  },
  {
    name: 'cancel / confirm by transactionId',
    built: cancelConfirmSigningString({ transactionId: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f' }, '1772359200'),
    raw: '0b7e4c1e-3a52-4c1d-9f0e-6a1b2c3d4e5f|1772359200',
    hash: '98847f4359d570309deb3d379869c90c10261d9a217323dba1b369b3870a6b33',
  },
  {
    name: 'cancel / confirm by the pair',
    built: cancelConfirmSigningString({ orderId: 'ORD-1001', referenceId: 'REF-1001' }, '1772359200'),
    raw: 'ORD-1001|REF-1001|1772359200',
    hash: '3f50e4ea298f9fda39da8e66314b5821bcb8612c39f74016b05b4faa46fbbdb1',
  },
  {
    name: 'remove a saved payment method (an addition)',
    built: removeSavedMethodSigningString('5d1c0f3e-8a7b-5c2d-9e4f-1a2b3c4d5e6f', 'u-100', '1772359200'),
    raw: '5d1c0f3e-8a7b-5c2d-9e4f-1a2b3c4d5e6f|u-100|1772359200',
    hash: 'f54d1a906f35a3b0fa9db856776e988dc42e7df6d305d02a62740b8c67f8777a',
  },
];

/**
 * Non-ASCII ids (docs/payments-signing.md, "Ids"): signed over their UTF-8 bytes, exactly as sent (no normalisation).
 * `bytes` is `printf '%s' "$RAW" | wc -c`, the length openssl hashed: Đ, ệ and ộ are 2 or 3 bytes, 🛵 is 4.
 */
const unicodeVectors: { name: string; built: string; raw: string; bytes: number; hash: string }[] = [
  {
    name: 'init with Vietnamese ids, branchId Hà-Nội and businessUnitId "Xe điện" (a space inside)',
    built: initSigningString({
      orderId: 'ĐH-Xe-điện-0001',
      referenceId: 'TC-Hà-Nội-0001',
      amount: 150000,
      currency: 'VND',
      orderCreatedAt: 1767225600000,
      branchId: 'Hà-Nội',
      businessUnitId: 'Xe điện',
    }),
    raw: 'ĐH-Xe-điện-0001|TC-Hà-Nội-0001|150000|VND|1767225600000|Hà-Nội|Xe điện',
    bytes: 83,
    hash: '7553ad32f62441bb7fabd279f07abef05a39b7eef53f1f2396808ca82e9abfe7',
  },
  {
    name: 'init with an emoji (outside the BMP: 4 UTF-8 bytes, 2 UTF-16 units) in the orderId',
    built: initSigningString({
      orderId: 'ĐH-🛵-0002',
      referenceId: 'TC-0002',
      amount: 99000,
      currency: 'VND',
      orderCreatedAt: 1767225600000,
    }),
    raw: 'ĐH-🛵-0002|TC-0002|99000|VND|1767225600000',
    bytes: 45,
    hash: 'bf5036de7d5e14c64b9bc169a44f8b48fb850b4c4fce3ad685f814903d876b84',
  },
  {
    name: 'cancel / confirm by a Vietnamese pair',
    built: cancelConfirmSigningString({ orderId: 'ĐH-Xe-điện-0001', referenceId: 'TC-Hà-Nội-0001' }, '1772359200'),
    raw: 'ĐH-Xe-điện-0001|TC-Hà-Nội-0001|1772359200',
    bytes: 48,
    hash: 'b2c2fe3a6540727512ec7b8b1c0fb9f807cf092e376ba93f1acf58dfa09c8fe1',
  },
];

describe('payment hub signing strings (the published vectors)', () => {
  for (const v of vectors)
    it(v.name, () => {
      expect(v.built).to.equal(v.raw);
      expect(hmacSha256Hex(secretKey, v.built)).to.equal(v.hash);
    });

  for (const v of unicodeVectors)
    it(`${v.name}: signed over its UTF-8 bytes`, () => {
      expect(v.built).to.equal(v.raw);
      expect(Buffer.byteLength(v.raw, 'utf8')).to.equal(v.bytes);
      expect(hmacSha256Hex(secretKey, v.built)).to.equal(v.hash);
    });

  it('the vectors in docs/payments-signing.md are these', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../../docs/payments-signing.md', import.meta.url), 'utf8');
    expect(doc).to.include(secretKey);
    for (const v of [...vectors, ...unicodeVectors]) {
      expect(doc, v.name).to.include(v.raw);
      expect(doc, v.name).to.include(v.hash);
    }
  });
});
