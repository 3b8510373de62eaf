import { expect } from 'chai';
import {
  hmacSha256Hex,
  randomToken,
  secretDigest,
  secretMatchesDigest,
  signatureMatches,
} from '../../../../application/shared/signatures.js';

describe('signatures and secret values', () => {
  it('HMAC-SHA-256 in lowercase hex (RFC 4231 test case 2)', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).to.equal(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('compares signatures whatever their hex case, and refuses anything else', () => {
    const expected = hmacSha256Hex('k', 'm');
    expect(signatureMatches(expected, expected)).to.equal(true);
    expect(signatureMatches(expected.toUpperCase(), expected)).to.equal(true);
    expect(signatureMatches(expected.slice(0, -1) + (expected.endsWith('0') ? '1' : '0'), expected)).to.equal(false);
    expect(signatureMatches(expected.slice(1), expected)).to.equal(false);
    expect(signatureMatches('z'.repeat(64), expected)).to.equal(false);
    expect(signatureMatches('', expected)).to.equal(false);
  });

  it('stores a secret as its sha256 and matches only that secret', () => {
    const digest = secretDigest('s3cret');
    expect(digest).to.equal('1ec1c26b50d5d3c58d9583181af8076655fe00756bf7285940ba3670f99fcba0'); // sha256sum of "s3cret"
    expect(secretMatchesDigest('s3cret', digest)).to.equal(true);
    expect(secretMatchesDigest('s3cret ', digest)).to.equal(false);
    expect(secretMatchesDigest('s3cret', 'not hex')).to.equal(false);
  });

  it('draws random tokens of the asked length from the alphabet, each character used', () => {
    const token = randomToken(32);
    expect(token).to.match(/^[A-Za-z0-9]{32}$/);
    expect(randomToken(32)).to.not.equal(token);
    const seen = new Set(randomToken(4000, 'abc'));
    expect([...seen].sort()).to.deep.equal(['a', 'b', 'c']);
  });
});
