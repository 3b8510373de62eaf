import { expect } from 'chai';
import express from 'express';
import { gatewayGuard } from '../../../api/gateway/index.js';
import { listen } from '../../../api/shared/http-app.js';
import { shopGatewayFront } from '../../../api/shop/gateway-front.js';
import { EndpointCatalog, type GatewayServices } from '../../../application/gateway/index.js';
import { call, expectRefusal } from '../../api/support.js';
import { gatewayHeaders } from '../../support/gateway.js';

describe('the gateway guard when it cannot check (its lookups fail)', () => {
  it('answers the interface’s own internal error and never lets the request through', async () => {
    const failing = { check: () => Promise.reject(new Error('database unreachable')) };
    const logged: string[] = [];
    const endpoints = new EndpointCatalog();
    const app = express();
    let reached = false;
    app.use(
      gatewayGuard(shopGatewayFront, { check: failing, endpoints } as unknown as GatewayServices, {
        logger: { error: (message: string) => logged.push(message) } as never,
      }),
    );
    app.use((_req, res) => {
      reached = true;
      res.json({});
    });
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const res = await call(`http://127.0.0.1:${server.port}`, 'GET', '/vouchers/1', { headers: gatewayHeaders() });
      expectRefusal(res, 500, 'SHOP-SYS-500', /cannot check/);
      expect(reached).to.equal(false);
      expect(logged).to.deep.equal(['gateway check failed']);
      // The guard declared the shop's endpoints, so operators' limits are checked against them.
      expect(endpoints.of('shop')).to.include('POST /vouchers/reserve');
    } finally {
      await server.close(1000);
    }
  });
});
