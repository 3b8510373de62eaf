import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { expect } from 'chai';
import express, { Router, type ErrorRequestHandler } from 'express';
import { json, on, rawJson } from '../../../api/shared/route.js';
import { expressPath, mount, registerRoutes, type RouteSpec } from '../../../api/shared/route-spec.js';

/** An app whose error handler answers 500 with the error's message, to see what reached it. */
async function serve(router: Router): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(router);
  const errors: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    res.status(500).json({ caught: err.message });
  };
  app.use(errors);
  const server: http.Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('routes: on(handler) and route specs', () => {
  let app: { url: string; close(): Promise<void> };
  before(async () => {
    const router = Router();
    router.get(
      '/json',
      on(() => json(201, { a: 'é' }, { 'X-Extra': 'yes' })),
    );
    router.get(
      '/async',
      on(async () => json(200, { ok: true })),
    );
    router.get(
      '/raw',
      on(async () => rawJson(Buffer.from('{"b":"ệ"}', 'utf8'))),
    );
    router.get(
      '/throws',
      on(() => {
        throw new Error('sync failure');
      }),
    );
    router.get(
      '/rejects',
      on(async () => {
        throw new Error('async failure');
      }),
    );
    // JSON cannot hold a BigInt: writing the result throws, after the handler's promise resolved.
    router.get(
      '/unwritable',
      on(async () => json(200, { n: 1n })),
    );
    mount(router, { method: 'get', path: '/items/{id}', pathPatterns: { id: '\\d+' }, responses: {} }, [], (req) =>
      json(200, { id: req.params.id }),
    );
    app = await serve(router);
  });
  after(() => app.close());

  it('writes a JSON result with its status and headers', async () => {
    const res = await fetch(`${app.url}/json`);
    expect(res.status).to.equal(201);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.headers.get('x-extra')).to.equal('yes');
    expect(await res.json()).to.deep.equal({ a: 'é' });
    expect(await (await fetch(`${app.url}/async`)).json()).to.deep.equal({ ok: true });
  });

  it('sends prebuilt JSON bytes as they are, and only the headers to HEAD', async () => {
    const res = await fetch(`${app.url}/raw`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).to.equal(String(Buffer.byteLength('{"b":"ệ"}')));
    expect(await res.text()).to.equal('{"b":"ệ"}');
    const head = await fetch(`${app.url}/raw`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).to.equal(res.headers.get('content-length'));
    expect(await head.text()).to.equal('');
  });

  it('passes what a handler throws or rejects with, and a result that cannot be written, to the error handler', async () => {
    for (const [path, message] of [
      ['/throws', 'sync failure'],
      ['/rejects', 'async failure'],
      ['/unwritable', 'Do not know how to serialize a BigInt'],
    ]) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status, path).to.equal(500);
      expect(await res.json(), path).to.deep.equal({ caught: message });
    }
  });

  it('mounts a spec at its express path, a path parameter held to its pattern', async () => {
    expect(expressPath({ path: '/vouchers/{id}', pathPatterns: { id: '\\d+' } })).to.equal('/vouchers/:id(\\d+)');
    expect(expressPath({ path: '/vouchers/reservation/{key}' })).to.equal('/vouchers/reservation/:key');
    expect(await (await fetch(`${app.url}/items/42`)).json()).to.deep.equal({ id: '42' });
    expect((await fetch(`${app.url}/items/abc`)).status).to.equal(404);
  });

  it('documents a spec under the base path, without its express-only pattern', () => {
    const registry = new OpenAPIRegistry();
    const spec: RouteSpec = {
      method: 'get',
      path: '/items/{id}',
      pathPatterns: { id: '\\d+' },
      operationId: 'getItem',
      responses: {},
    };
    registerRoutes(registry, '/api/v9', [spec]);
    const [definition] = registry.definitions;
    expect(definition).to.deep.equal({
      type: 'route',
      route: { method: 'get', path: '/api/v9/items/{id}', operationId: 'getItem', responses: {} },
    });
  });
});
