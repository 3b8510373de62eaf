import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { AesGcmSecretCipher, cipherKeyId } from '../../../infrastructure/shared/secret-cipher.js';

const key = () => randomBytes(32).toString('hex');

describe('AesGcmSecretCipher', () => {
  it('opens what it sealed, under the same binding only', () => {
    const cipher = new AesGcmSecretCipher('payments-secret-key', key());
    const sealed = cipher.encrypt('the merchant secret', 'merchant-1');
    expect(sealed).to.match(/^k1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(sealed).to.not.include('merchant secret');
    expect(cipher.decrypt(sealed, 'merchant-1')).to.equal('the merchant secret');
    expect(() => cipher.decrypt(sealed, 'merchant-2')).to.throw();
    expect(cipher.encrypt('the merchant secret', 'merchant-1')).to.not.equal(sealed); // a fresh iv each time
  });

  it('separates purposes: a text of one use does not open as another', () => {
    const k = key();
    const sealed = new AesGcmSecretCipher('orders-secret-key', k).encrypt('x', 'm');
    expect(() => new AesGcmSecretCipher('payments-secret-key', k).decrypt(sealed, 'm')).to.throw();
  });

  it('after a rotation, old texts open with the old key in the ring; without it they do not', () => {
    const [oldKey, newKey] = [key(), key()];
    const sealed = new AesGcmSecretCipher('p', oldKey).encrypt('v', 'b');
    expect(new AesGcmSecretCipher('p', newKey, [oldKey]).decrypt(sealed, 'b')).to.equal('v');
    expect(() => new AesGcmSecretCipher('p', newKey).decrypt(sealed, 'b')).to.throw(/not in the keyring/);
    expect(sealed.split('.')[1]).to.equal(cipherKeyId(Buffer.from(oldKey, 'hex')));
  });

  it('refuses a tampered text and malformed keys', () => {
    const cipher = new AesGcmSecretCipher('p', key());
    const sealed = cipher.encrypt('value', 'b');
    const body = Buffer.from(sealed.split('.')[2]!, 'base64url');
    body[body.length - 1]! ^= 1;
    const tampered = `${sealed.split('.').slice(0, 2).join('.')}.${body.toString('base64url')}`;
    expect(() => cipher.decrypt(tampered, 'b')).to.throw();
    expect(() => cipher.decrypt('plain text', 'b')).to.throw(/not an encrypted secret/);
    expect(() => new AesGcmSecretCipher('p', 'abc')).to.throw(RangeError);
  });
});
