import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { rotateVoucherKeys } from '../../../../infrastructure/shop/rotate-voucher-key.js';
import { AesGcmVoucherCodeCipher } from '../../../../infrastructure/shop/voucher-code-cipher.js';

const hex = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
const binding = { reservationKey: 'r', issuedPromotionId: 1 };

/** Runs `npm run voucher-key:rotate`'s script with `env`; answers what it printed. */
const rotate = (env: Record<string, string>) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'infrastructure/shop/rotate-voucher-key.ts'], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });

describe('voucher key rotation (npm run voucher-key:rotate)', () => {
  it('puts a fresh key first and the current one at the head of the old keys, none twice', () => {
    expect(rotateVoucherKeys({ key: hex(1), oldKeys: [hex(2)] }, hex(3))).to.deep.equal({
      key: hex(3),
      oldKeys: [hex(1), hex(2)],
    });
    expect(rotateVoucherKeys({ key: hex(1), oldKeys: [hex(1).toUpperCase()] }, hex(3)).oldKeys).to.deep.equal([hex(1)]);
    expect(rotateVoucherKeys({ key: hex(1), oldKeys: [] }).key)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(hex(1));
  });

  it('in development rewrites dev-secrets.json: what the old key encrypted still opens with the new ring', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rotate-'));
    const file = path.join(dir, 'dev-secrets.json');
    const first = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
    fs.writeFileSync(file, JSON.stringify({ voucherCodeKey: first, other: 'kept' }));
    const text = new AesGcmVoucherCodeCipher(first).encrypt('0000-0001-AAAA-BBBB-CCCC', binding);

    expect(rotate({ DATA_DIR: dir }))
      .to.match(/Rotated the voucher code key/)
      .and.not.include(first);
    const once = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(once.voucherCodeKey)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(first);
    expect(once.voucherCodeOldKeys).to.equal(first);
    expect(once.other).to.equal('kept');
    rotate({ DATA_DIR: dir });
    const twice = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(twice.voucherCodeOldKeys).to.equal(`${once.voucherCodeKey},${first}`);
    const ring = new AesGcmVoucherCodeCipher(twice.voucherCodeKey!, twice.voucherCodeOldKeys!.split(','));
    expect(ring.decrypt(text, binding)).to.equal('0000-0001-AAAA-BBBB-CCCC');
  });

  it('with the key set in the environment prints the two values to store and writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rotate-'));
    const key = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
    const printed = rotate({
      DATA_DIR: dir,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/commerce',
      VOUCHER_CODE_KEY: key,
      SHOP_CLIENT_ID: 'x',
      SHOP_CLIENT_SECRET: 'y'.repeat(16),
      OPERATOR_TOKENS: 'a=Vx7q2LmN9pR4sT8wY3zA6bC1dE5fG0hJ',
    });
    expect(printed).to.match(/^VOUCHER_CODE_KEY=[0-9a-f]{64}$/m);
    expect(printed).to.include(`VOUCHER_CODE_OLD_KEYS=${key}`);
    expect(fs.readdirSync(dir)).to.deep.equal([]);
  });
});
