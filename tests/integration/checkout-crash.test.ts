/**
 * kill -9 between reserve and confirm (issue 14): the service restarted on the same database finds the reservation
 * intact (its promotion still held, the discount as reserved) and confirms it. main.ts as `npm start` runs it.
 */
import { expect } from 'chai';
import { call, expectOk } from '../api/support.js';
import {
  CheckoutCaller,
  checkoutOk,
  checkoutRefusal,
  checkoutScene,
  line,
  order,
} from '../api/checkout/checkout-support.js';
import { mainSuite } from '../support/main-suite.js';

const operatorToken = 'alice-operator-token-0123456789';

describe('Checkout: kill -9 between reserve and confirm (main.ts)', function () {
  this.timeout(120_000);
  const suite = mainSuite('checkout-crash');
  const start = () => suite.start({ PORT: '0', SEED_DEMO: 'false', OPERATOR_TOKENS: `alice=${operatorToken}` });

  it('finds the reservation intact after a restart and confirms it', async () => {
    let service = await start();
    let baseUrl = `http://127.0.0.1:${service.port}`;
    const operator = { Authorization: `Bearer ${operatorToken}` };
    expectOk(
      await call(baseUrl, 'POST', '/operator/v1/gateway/parties', {
        headers: operator,
        json: { partyId: 'crash-tests', name: 'Crash tests', kind: 'INTERNAL', interfaces: ['checkout'] },
      }),
      201,
    );
    const pair = expectOk(
      await call<{ clientId: string; clientSecret: string }>(
        baseUrl,
        'POST',
        '/operator/v1/gateway/parties/crash-tests/credentials',
        { headers: operator, json: { environments: ['dev'] } },
      ),
      201,
    );
    const scene = await checkoutScene({ baseUrl }, { client_id: pair.clientId, client_secret: pair.clientSecret });
    const caller = scene.caller();
    const [p, q] = await scene.issue(await scene.master(), [caller.userId, caller.userId]);
    const orders = [order('M001', [line('i1', 1, 200_000)])];
    const reserved = checkoutOk(await caller.reserve(p!.promotion_id, orders, { orderId: 'order-1' }));

    service.child.kill('SIGKILL');
    expect((await service.exited).signal).to.equal('SIGKILL');

    service = await start();
    baseUrl = `http://127.0.0.1:${service.port}`;
    const after = new CheckoutCaller(baseUrl, caller.merchant, caller.userId, caller.defaults);
    const got = checkoutOk(await after.step('get-reservation', reserved.reservation_key));
    expect(got.status).to.equal('RESERVED');
    expect(got.promotions[0]).to.include({ promotion_id: p!.promotion_id, status: 'RESERVED', code: p!.code });
    const confirmed = checkoutOk(await after.step('confirm', reserved.reservation_key));
    expect(confirmed.promotions[0]!.status).to.equal('USED');
    // The order's claim survived too: its reservation is confirmed, so a second one is refused (8012).
    checkoutRefusal(await after.reserve(q!.promotion_id, orders, { orderId: 'order-1' }), 409, '8012');
  });
});
