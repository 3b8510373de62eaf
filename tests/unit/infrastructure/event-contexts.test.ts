/**
 * The NATS bus files each event under its bounded context and gives a projector only its context's events
 * (docs/projections.md, "Buses"): that holds only while no type belongs to two contexts and every projector reads one
 * context's types.
 */
import { expect } from 'chai';
import { contexts, contextOfEventType, projectors } from '../../../container.js';
import { checkoutEventSchemas } from '../../../domain/checkout/event-decoder.js';
import { filesEventSchemas } from '../../../domain/files/event-decoder.js';
import { gatewayEventSchemas } from '../../../domain/gateway/event-decoder.js';
import { identityEventSchemas } from '../../../domain/identity/event-decoder.js';
import { ordersEventSchemas } from '../../../domain/orders/event-decoder.js';
import { paymentsEventSchemas } from '../../../domain/payments/event-decoder.js';
import { shopEventSchemas } from '../../../domain/shop/event-decoder.js';

const registries: Record<string, object> = {
  checkout: checkoutEventSchemas,
  files: filesEventSchemas,
  gateway: gatewayEventSchemas,
  identity: identityEventSchemas,
  orders: ordersEventSchemas,
  payments: paymentsEventSchemas,
  shop: shopEventSchemas,
};

describe('event types by bounded context', () => {
  it('files every type of a context’s registry under that context, and no type under two', () => {
    expect(Object.keys(registries).sort()).to.deep.equal(contexts.map((c) => c.name).sort());
    const owners = new Map<string, string[]>();
    for (const [context, registry] of Object.entries(registries))
      for (const type of Object.keys(registry)) owners.set(type, [...(owners.get(type) ?? []), context]);
    expect([...owners].filter(([, of]) => of.length > 1)).to.deep.equal([]);
    for (const [type, [context]] of owners) expect(contextOfEventType(type), type).to.equal(context);
    expect(contextOfEventType('IdempotencyKeyUsed')).to.equal(undefined);
  });

  it('has every projector read the types of the context it belongs to', () => {
    for (const context of contexts)
      for (const projector of context.projectors)
        expect(
          [...projector.eventTypes].filter((type) => contextOfEventType(type) !== context.name),
          projector.name,
        ).to.deep.equal([]);
    expect(projectors.length).to.be.greaterThan(0);
  });
});
