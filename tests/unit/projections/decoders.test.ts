import { expect } from 'chai';
import { catalogProjector } from '../../../projections/shop/catalog.js';
import { reservationsProjector } from '../../../projections/shop/reservations.js';
import { voucherInventoryProjector } from '../../../projections/shop/voucher-inventory.js';
import { voucherSearchProjector } from '../../../projections/shop/voucher-search.js';

describe('shop projectors and their decoder', () => {
  it('decode every type they apply: the runner never hands one to a decoder that does not know it', () => {
    for (const projector of [
      catalogProjector,
      reservationsProjector,
      voucherInventoryProjector,
      voucherSearchProjector,
    ])
      for (const type of projector.eventTypes)
        expect(projector.decoder.has(type), `${projector.name} ${type}`).to.equal(true);
  });
});
