import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { AesGcmVoucherCodeCipher } from '../../../infrastructure/shop/voucher-code-cipher.js';
import { asOperator } from '../../support/commands.js';
import { caller, order, PurchaseWorld } from './purchase-support.js';

describe('voucher code keys rotate without re-encrypting, and a missing key never turns a commit into a 500', () => {
  let world: PurchaseWorld;
  before(async () => {
    world = await PurchaseWorld.create();
  });
  after(() => world.close());

  it('given codes under the old key, a process with only a new key commits (codes null, logged), and one with the old key in its ring shows them again', async () => {
    const first = world.process(); // world.codes: the old key
    const pool = await first.pools.create(asOperator('ops'), world.definition({ totalQuantity: 10 }));
    const reserved = await first.purchases.reserve(caller(), randomUUID(), order(pool.poolId, 2, 90_000, 'order-rot'));
    const codes = reserved.items[0]!.vouchers.map((v) => v.voucherCode);
    expect(codes.every((c) => typeof c === 'string')).to.equal(true);

    // The key was changed and the old one not kept: the commit still succeeds, the codes cannot be shown.
    const newKey = randomBytes(32);
    const forgetful = world.process({}, new AesGcmVoucherCodeCipher(newKey));
    const committed = await forgetful.purchases.commit(caller(), reserved.reservationKey);
    expect(committed.status).to.equal('COMMITTED');
    expect(committed.items[0]!.vouchers.map((v) => v.voucherCode)).to.deep.equal([null, null]);
    expect(world.logged.some((l) => /could not be decrypted/.test(l.msg))).to.equal(true);

    // Rotated properly: the new key encrypts, the old one stays in the ring; the committed codes show again.
    const rotated = world.process({}, new AesGcmVoucherCodeCipher(newKey, [world.codeKey]));
    const looked = await rotated.purchases.get(caller(), reserved.reservationKey);
    expect(looked.items[0]!.vouchers.map((v) => v.voucherCode)).to.deep.equal(codes);
    const again = await rotated.purchases.reserve(caller(), randomUUID(), order(pool.poolId, 1, 90_000, 'order-rot-2'));
    expect(again.items[0]!.vouchers[0]!.voucherCode).to.be.a('string');
  });
});
