import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { expect } from 'chai';
import express from 'express';
import { DomainError } from '../../../domain/shared/errors.js';
import {
  HttpError,
  interfaceErrorHandler,
  seedWording,
  unknownEndpoint,
  type ErrorTable,
  type InterfaceErrors,
} from '../../../api/shared/interface-errors.js';
import { on } from '../../../api/shared/route.js';
import { shopErrorTable } from '../../../api/shop/error-mapping.js';

type Code = 'THING_NOT_FOUND' | 'THING_LOCKED';

// @ts-expect-error: a domain code left out of an interface's table does not compile.
const _incomplete: ErrorTable<Code> = { THING_NOT_FOUND: [404, 'X-404'] };
// @ts-expect-error: nor does a code the interface cannot receive.
const _extra: ErrorTable<Code> = { THING_NOT_FOUND: [404, 'X-404'], THING_LOCKED: [409, 'X-409'], OTHER: [400, 'X'] };

describe('an interface error handler', () => {
  const logged: unknown[] = [];
  let url: string;
  let server: http.Server;

  before(async () => {
    const app = express();
    app.set('env', 'test'); // express's last handler does not print the error of the half-written answer
    const fail = (error: unknown) =>
      on(() => {
        throw error;
      });
    app.get('/http', fail(new HttpError(403, 'X-403', 'not yours', { field: 'id' })));
    app.get('/mapped', fail(new DomainError('THING_LOCKED', 'thing 7 is locked', { thingId: 7 })));
    app.get('/unmapped', fail(new DomainError('SOMETHING_ELSE', 'an operator code')));
    app.get('/prototype-key', fail(new DomainError('constructor', 'named like an Object.prototype key')));
    app.get('/bug', fail(new TypeError('x is undefined')));
    app.get(
      '/no-table',
      fail(Object.assign(new Error('relation "shop_voucher_listings" does not exist'), { code: '42P01' })),
    );
    app.get(
      '/db-down',
      fail(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    );
    app.get(
      '/pool-timeout',
      fail(Object.assign(new Error('Timeout acquiring a connection'), { name: 'KnexTimeoutError' })),
    );
    app.get('/other-sql', fail(Object.assign(new Error('syntax error'), { code: '42601' })));
    app.get('/half-written', (_req, res, next) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      next(new Error('failed mid-answer'));
    });
    app.post('/body', express.json({ limit: '10b' }), (_req, res) => {
      res.json({});
    });
    app.get('/things/:id', (_req, res) => {
      res.json({});
    });
    const table: ErrorTable<Code> = { THING_NOT_FOUND: [404, 'X-404'], THING_LOCKED: [409, 'X-409'] };
    const errors: InterfaceErrors<Code> = {
      name: 'test',
      table,
      malformed: { invalid: 'X-400', tooLarge: 'X-413', unsupportedMediaType: 'X-415' },
      unknownEndpoint: 'X-NO-ENDPOINT',
      internal: { code: 'X-500', message: 'internal error' },
      send: (res, status, code, message, data) => {
        res.status(status).json({ code, message, data });
      },
      detailsOf: (error) => ({ code: error.code }),
    };
    app.use(unknownEndpoint(errors));
    app.use(interfaceErrorHandler(errors, { error: (message, meta) => logged.push([message, meta]) }));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    logged.length = 0;
  });

  const answer = async (path: string, init?: RequestInit) => {
    const res = await fetch(url + path, init);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('answers an HttpError as it is', async () => {
    expect(await answer('/http')).to.deep.equal({
      status: 403,
      body: { code: 'X-403', message: 'not yours', data: { field: 'id' } },
    });
  });

  it("maps a typed domain error through the interface's table, with the details it chooses to show", async () => {
    expect(await answer('/mapped')).to.deep.equal({
      status: 409,
      body: { code: 'X-409', message: 'thing 7 is locked', data: { code: 'THING_LOCKED' } },
    });
  });

  it('answers a code not in the table, or anything else, with the internal error, and logs it', async () => {
    for (const path of ['/unmapped', '/prototype-key', '/bug']) {
      expect(await answer(path), path).to.deep.equal({
        status: 500,
        body: { code: 'X-500', message: 'internal error', data: null },
      });
    }
    expect(logged.map((entry) => (entry as [string])[0])).to.deep.equal(Array(3).fill('test request failed'));
  });

  it('answers storage that is away or not ready (no read-model table yet, refused, timed out) 503 with Retry-After', async () => {
    for (const path of ['/no-table', '/db-down', '/pool-timeout']) {
      const res = await fetch(url + path);
      expect(res.status, path).to.equal(503);
      expect(res.headers.get('retry-after'), path).to.equal('1');
      expect(((await res.json()) as { code: string }).code, path).to.equal('X-500');
    }
    expect((await answer('/other-sql')).status, 'a bug in SQL stays a 500').to.equal(500);
  });

  it("answers a malformed request with the interface's request codes", async () => {
    const post = (body: string, contentType = 'application/json') =>
      answer('/body', { method: 'POST', headers: { 'Content-Type': contentType }, body });
    expect(await post('{')).to.deep.include({
      status: 400,
      body: { code: 'X-400', message: 'request body is not valid JSON', data: null },
    });
    expect((await post('{"a":"0123456789"}')).body).to.include({ code: 'X-413' });
    expect((await post('{}', 'application/json; charset=latin1')).body).to.include({ code: 'X-415' });
    expect(await answer('/things/%E0%A4%A')).to.deep.equal({
      status: 400,
      body: { code: 'X-400', message: 'request path is not valid percent-encoding', data: null },
    });
  });

  it('answers a path it does not serve with 404 naming it', async () => {
    expect(await answer('/nowhere?x=1')).to.deep.equal({
      status: 404,
      body: { code: 'X-NO-ENDPOINT', message: 'no endpoint GET /nowhere', data: null },
    });
  });

  it('leaves an answer already started to express, which ends it', async () => {
    const res = await fetch(`${url}/half-written`)
      .then((r) => r.text())
      .catch((e: unknown) => e);
    // Express destroys the connection: the client sees the partial answer end early, or a network error.
    expect(res).to.satisfy((r: unknown) => r instanceof Error || r === 'partial');
    expect(logged).to.deep.equal([]);
  });

  it("the shop's table maps every code the shop interface can receive (docs/shop-api.md)", () => {
    expect(shopErrorTable).to.deep.include({
      INVALID_REQUEST: [400, 'SHOP-REQ-001'],
      INVALID_KEYWORD: [400, 'SHOP-REQ-001'],
      KEYWORD_TOO_SHORT: [400, 'SHOP-VOU-002'],
      OUT_OF_STOCK: [400, 'SHOP-PUR-012'],
    });
  });
});

describe("seedWording: the seed's message for its codes, the specifics in data", () => {
  const messages = { '8006': 'Order minimum not met', '4301': 'Transaction not found' };

  it("writes the seed's text; what the refusal said moves to data.detail beside its other specifics", () => {
    expect(
      seedWording(messages, '8006', 'the subtotal 90000 is below 100000', { remaining_amount: 10_000 }),
    ).to.deep.equal({
      message: 'Order minimum not met',
      data: { remaining_amount: 10_000, detail: 'the subtotal 90000 is below 100000' },
    });
    expect(seedWording(messages, '8006', 'below the minimum', null)).to.deep.equal({
      message: 'Order minimum not met',
      data: { detail: 'below the minimum' },
    });
  });

  it('adds no detail that only repeats the text (in another case)', () => {
    expect(seedWording(messages, '4301', 'transaction not found', null)).to.deep.equal({
      message: 'Transaction not found',
      data: null,
    });
  });

  it("keeps a code the seed gives no text for as it is, an Object.prototype key's too", () => {
    expect(seedWording(messages, '8400', 'X-Request-Id must be a UUID', null)).to.deep.equal({
      message: 'X-Request-Id must be a UUID',
      data: null,
    });
    expect(seedWording(messages, 'constructor', 'an own code', { field: 'a' })).to.deep.equal({
      message: 'an own code',
      data: { field: 'a' },
    });
  });
});
