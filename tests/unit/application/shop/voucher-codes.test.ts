import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { newVoucherCode } from '../../../../application/shop/voucher-codes.js';
import { AesGcmVoucherCodeCipher } from '../../../../infrastructure/shop/voucher-code-cipher.js';

describe('voucher codes', () => {
  it('start with the issued voucher id in fixed width, so codes of different ids never collide', () => {
    const a = newVoucherCode(1);
    const b = newVoucherCode(32);
    expect(a).to.match(/^0000-0001-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(b.startsWith('0000-0010-')).to.equal(true);
    expect(newVoucherCode(1)).not.to.equal(a);
    expect(() => newVoucherCode(-1)).to.throw(RangeError);
  });

  it('encrypt to a different text each time and decrypt back', () => {
    const cipher = new AesGcmVoucherCodeCipher(randomBytes(32).toString('hex'));
    const code = newVoucherCode(42);
    const [x, y] = [cipher.encrypt(code), cipher.encrypt(code)];
    expect(x).not.to.equal(y);
    expect(x).not.to.include(code);
    expect([cipher.decrypt(x), cipher.decrypt(y)]).to.deep.equal([code, code]);
  });

  it('refuse a tampered text or one encrypted with another key', () => {
    const cipher = new AesGcmVoucherCodeCipher(randomBytes(32));
    const other = new AesGcmVoucherCodeCipher(randomBytes(32));
    const text = cipher.encrypt(newVoucherCode(7));
    const flipped = text.slice(0, -2) + (text.at(-2) === 'A' ? 'B' : 'A') + text.at(-1);
    expect(() => cipher.decrypt(flipped)).to.throw();
    expect(() => other.decrypt(text)).to.throw();
    expect(() => cipher.decrypt('plain')).to.throw('not an encrypted voucher code');
  });

  it('need a 32-byte key', () => {
    expect(() => new AesGcmVoucherCodeCipher('abcd')).to.throw(RangeError);
    expect(() => new AesGcmVoucherCodeCipher(randomBytes(16))).to.throw(RangeError);
  });
});
