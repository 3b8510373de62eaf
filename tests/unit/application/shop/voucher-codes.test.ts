import { createCipheriv, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { newVoucherCode } from '../../../../application/shop/voucher-codes.js';
import { AesGcmVoucherCodeCipher, voucherKeyId } from '../../../../infrastructure/shop/voucher-code-cipher.js';

const binding = { reservationKey: '6f1d2c3b-0000-4000-8000-000000000001', issuedPromotionId: 42 };

/** A text as the cipher wrote it before the keyring (`v1.`: no key id, no binding). */
function v1Text(key: Buffer, code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

describe('voucher codes', () => {
  it('start with the issued voucher id in fixed width, so codes of different ids never collide', () => {
    const a = newVoucherCode(1);
    const b = newVoucherCode(32);
    expect(a).to.match(/^0000-0001-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(b.startsWith('0000-0010-')).to.equal(true);
    expect(newVoucherCode(1)).not.to.equal(a);
    expect(() => newVoucherCode(-1)).to.throw(RangeError);
  });

  it('encrypt to a different text each time, naming the key, and decrypt back', () => {
    const key = randomBytes(32);
    const cipher = new AesGcmVoucherCodeCipher(key.toString('hex'));
    const code = newVoucherCode(42);
    const [x, y] = [cipher.encrypt(code, binding), cipher.encrypt(code, binding)];
    expect(x).not.to.equal(y);
    expect(x).not.to.include(code);
    expect(x.startsWith(`v2.${voucherKeyId(key)}.`)).to.equal(true);
    expect([cipher.decrypt(x, binding), cipher.decrypt(y, binding)]).to.deep.equal([code, code]);
  });

  it('bind each text to its voucher: copied onto another voucher or reservation, it does not open', () => {
    const cipher = new AesGcmVoucherCodeCipher(randomBytes(32));
    const text = cipher.encrypt(newVoucherCode(42), binding);
    expect(() => cipher.decrypt(text, { ...binding, issuedPromotionId: 43 })).to.throw();
    expect(() =>
      cipher.decrypt(text, { ...binding, reservationKey: '6f1d2c3b-0000-4000-8000-000000000002' }),
    ).to.throw();
  });

  it('refuse a tampered text, one encrypted with a key not in the ring, or plain text', () => {
    const cipher = new AesGcmVoucherCodeCipher(randomBytes(32));
    const other = new AesGcmVoucherCodeCipher(randomBytes(32));
    const text = cipher.encrypt(newVoucherCode(7), binding);
    const flipped = text.slice(0, -2) + (text.at(-2) === 'A' ? 'B' : 'A') + text.at(-1);
    expect(() => cipher.decrypt(flipped, binding)).to.throw();
    expect(() => other.decrypt(text, binding)).to.throw(/is not in the keyring/);
    expect(() => cipher.decrypt('plain', binding)).to.throw('not an encrypted voucher code');
  });

  it('rotate: the new key encrypts, old keys in the ring still decrypt what they wrote; nothing is re-encrypted', () => {
    const [first, second, third] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const before = new AesGcmVoucherCodeCipher(first);
    const oldText = before.encrypt('0000-0001-AAAA-BBBB-CCCC', binding);
    const rotated = new AesGcmVoucherCodeCipher(second, [first]);
    const newText = rotated.encrypt('0000-0002-AAAA-BBBB-CCCC', binding);
    expect(rotated.decrypt(oldText, binding)).to.equal('0000-0001-AAAA-BBBB-CCCC');
    expect(newText.split('.')[1]).to.equal(rotated.keyId);
    const twice = new AesGcmVoucherCodeCipher(third, [second, first]);
    expect([twice.decrypt(oldText, binding), twice.decrypt(newText, binding)]).to.deep.equal([
      '0000-0001-AAAA-BBBB-CCCC',
      '0000-0002-AAAA-BBBB-CCCC',
    ]);
    // Dropped from the ring too early: refused, naming the key's id (never the key).
    expect(() => new AesGcmVoucherCodeCipher(third, [second]).decrypt(oldText, binding)).to.throw(voucherKeyId(first));
  });

  it('still read texts written before the keyring (v1), with any key of the ring', () => {
    const [old, current] = [randomBytes(32), randomBytes(32)];
    const text = v1Text(old, '0000-0009-AAAA-BBBB-CCCC');
    expect(new AesGcmVoucherCodeCipher(current, [old]).decrypt(text, binding)).to.equal('0000-0009-AAAA-BBBB-CCCC');
    expect(() => new AesGcmVoucherCodeCipher(current).decrypt(text, binding)).to.throw(/no key of the keyring/);
  });

  it('need 32-byte keys', () => {
    expect(() => new AesGcmVoucherCodeCipher('abcd')).to.throw(RangeError);
    expect(() => new AesGcmVoucherCodeCipher(randomBytes(16))).to.throw(RangeError);
    expect(() => new AesGcmVoucherCodeCipher(randomBytes(32), ['abcd'])).to.throw(RangeError);
  });
});
