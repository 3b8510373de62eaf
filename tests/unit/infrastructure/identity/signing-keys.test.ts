import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../../application/shared/clock.js';
import { createJwtCodec } from '../../../../infrastructure/identity/jwt-codec.js';
import { newSigningKeyJwk, readSigningKeys } from '../../../../infrastructure/identity/index.js';

const payload = (at: Date) => ({
  userId: 'u1',
  miniAppId: 'app',
  scopes: ['profile' as const],
  grantId: '0b0e3c1e-4a53-4c6e-9a77-3a1f1f4a5d10',
  issuedAt: at,
  expiresAt: new Date(at.getTime() + 600_000),
});

describe('identity signing keys (IDENTITY_SIGNING_KEYS)', () => {
  it('reads Ed25519 and P-256 private JWKs as EdDSA and ES256 keys', () => {
    const ec = {
      kid: 'ec-1',
      ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
    };
    const keys = readSigningKeys(JSON.stringify([newSigningKeyJwk(), ec]));
    expect(keys.map((k) => k.alg)).to.deep.equal(['EdDSA', 'ES256']);
  });

  it('refuses what is not a list of valid private Ed25519 or P-256 keys with unique kids', () => {
    const ed = newSigningKeyJwk();
    const { d: _, ...publicOnly } = ed;
    const rsa = {
      kid: 'rsa',
      ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    };
    const p384 = {
      kid: 'p384',
      ...generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' }),
    };
    const other = newSigningKeyJwk();
    const cases: [unknown, RegExp][] = [
      ['not json', /JSON array/],
      [[], /at least one key/],
      [[publicOnly], /private key/],
      [[rsa], /OKP \(Ed25519\) or EC \(P-256\)/],
      [[{ kid: 'oct', kty: 'oct', k: 'c2VjcmV0' }], /kty/],
      [[p384], /P-256/],
      [[{ ...ed, x: other.x }], /not a valid private key/],
      [[ed, { ...other, kid: ed.kid }], /share a kid/],
      [[{ ...ed, kid: '' }], /kid/],
    ];
    for (const [value, message] of cases)
      expect(
        () => readSigningKeys(typeof value === 'string' ? value : JSON.stringify(value)),
        JSON.stringify(value),
      ).to.throw(message);
  });

  it('rotates: a token signed before a new key was put first still reads; one whose key was dropped does not', async () => {
    const clock = fixedClock('2026-03-01T10:00:00.000Z');
    const [oldKey] = readSigningKeys(JSON.stringify([newSigningKeyJwk()]));
    const [newKey] = readSigningKeys(JSON.stringify([newSigningKeyJwk()]));
    const before = createJwtCodec({ keys: [oldKey!], issuer: 'iss', clock });
    const during = createJwtCodec({ keys: [newKey!, oldKey!], issuer: 'iss', clock });
    const after = createJwtCodec({ keys: [newKey!], issuer: 'iss', clock });
    const token = await before.sign(payload(clock.now()));
    expect((await during.read(token)).ok).to.equal(true);
    expect(await after.read(token)).to.deep.equal({ ok: false, reason: 'TOKEN_INVALID' });
    const fresh = await during.sign(payload(clock.now()));
    expect(JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid).to.equal(newKey!.kid);
    expect(during.publicKeys().keys.map((k) => k.kid)).to.deep.equal([newKey!.kid, oldKey!.kid]);
    const other = createJwtCodec({ keys: [newKey!], issuer: 'another-issuer', clock });
    expect(await other.read(fresh)).to.deep.equal({ ok: false, reason: 'TOKEN_INVALID' });
    clock.advance(600_000);
    expect(await during.read(fresh)).to.deep.equal({ ok: false, reason: 'TOKEN_EXPIRED' });
  });

  it('keeps a verified token for its next reads, and still refuses it once it expired', async () => {
    const clock = fixedClock('2026-03-01T10:00:00.000Z');
    const codec = createJwtCodec({ keys: readSigningKeys(JSON.stringify([newSigningKeyJwk()])), issuer: 'iss', clock });
    const token = await codec.sign(payload(clock.now()));
    const first = await codec.read(token);
    expect(first.ok).to.equal(true);
    expect(await codec.read(token)).to.deep.equal(first);
    const [header, body, signature] = token.split('.');
    const flipped = `${header}.${body}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(await codec.read(flipped)).to.deep.equal({ ok: false, reason: 'TOKEN_INVALID' });
    clock.advance(599_000);
    expect((await codec.read(token)).ok).to.equal(true);
    clock.advance(1_000);
    expect(await codec.read(token)).to.deep.equal({ ok: false, reason: 'TOKEN_EXPIRED' });
    expect(await codec.read(token)).to.deep.equal({ ok: false, reason: 'TOKEN_EXPIRED' });
  });
});
