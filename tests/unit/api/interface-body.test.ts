import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { expect } from 'chai';
import express, { type RequestHandler } from 'express';
import { z } from 'zod';
import { interfaceBody, type InterfaceBodyOptions } from '../../../api/shared/interface-body.js';
import { HttpError, interfaceErrorHandler, type InterfaceErrors } from '../../../api/shared/interface-errors.js';
import { on } from '../../../api/shared/route.js';

const errors: InterfaceErrors<never> = {
  name: 'test',
  table: {},
  malformed: { invalid: 'X-400', tooLarge: 'X-413', unsupportedMediaType: 'X-415' },
  unknownEndpoint: 'X-404',
  internal: { code: 'X-500', message: 'internal error' },
  send: (res, status, code, message, data) => {
    res.status(status).json({ code, message, data });
  },
};

const thing = z.object({ name: z.string(), sizes: z.array(z.number()) }).strict();
const budget = { members: 10, elements: 10 };

describe('one body reader per interface (api/shared/interface-body.ts)', () => {
  let url: string;
  let server: http.Server;

  before(async () => {
    const app = express();
    /** A route reading `thing` with `options`; `first` runs between the parsers and the read (a route's own check). */
    const route = (path: string, options: Omit<InterfaceBodyOptions, 'limit' | 'budget'>, within?: string) => {
      const body = interfaceBody(errors, { limit: '1kb', budget, ...options });
      const first: RequestHandler = (req, _res, next) =>
        next(req.header('x-key') === 'wrong' ? new HttpError(401, 'X-401', 'wrong key') : undefined);
      app.post(
        path,
        ...body.parsers,
        first,
        on((req) => ({ status: 200, body: { read: body.read(thing, req, within) } })),
      );
    };
    route('/fields', { notObject: 'body must be a JSON object' });
    route('/sentence', { strict: false, issues: 'sentence' });
    route('/hub', { strict: false, notJson: 'invalid' });
    route('/first', { notJsonFirst: true });
    route('/within', {}, 'pricing');
    const signed = interfaceBody(errors, { limit: '1kb', budget, raw: true });
    app.post(
      '/raw',
      ...signed.parsers,
      on((req) => {
        const text = signed.text(req);
        return { status: 200, body: { text, read: signed.parseText(thing, text) } };
      }),
    );
    app.use(interfaceErrorHandler(errors, { error: () => undefined }));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('given a valid body, when read, then the route gets the typed value', async () => {
    expect(await post('/fields', '{"name":"a","sizes":[1]}')).to.deep.equal({
      status: 200,
      body: { read: { name: 'a', sizes: [1] } },
    });
  });

  it("given a schema's refusal, when worded by field, then the first issue names its field in data.field", async () => {
    expect(await post('/fields', '{"name":"a","sizes":["x"]}')).to.deep.equal({
      status: 400,
      body: { code: 'X-400', message: 'sizes[0]: Expected number, received string', data: { field: 'sizes[0]' } },
    });
    expect((await post('/fields', '{"sizes":[]}')).body).to.deep.include({ message: 'name is required' });
  });

  it("given a schema's refusal, when worded as a sentence, then it names the dotted path and shows no data", async () => {
    expect(await post('/sentence', '{"name":"a","sizes":["x"]}')).to.deep.equal({
      status: 400,
      body: { code: 'X-400', message: 'sizes.0: Expected number, received string', data: null },
    });
  });

  it('given a top that is not an object, when the interface refuses one, then its sentence; else the schema answers', async () => {
    expect(await post('/fields', '[1]')).to.deep.equal({
      status: 400,
      body: { code: 'X-400', message: 'body must be a JSON object', data: null },
    });
    expect((await post('/sentence', '[1]')).body).to.deep.include({ message: 'body: Expected object, received array' });
  });

  it('given a Content-Type other than JSON, when read, then 415 with the interface code, or its invalid input naming the header', async () => {
    const text = { 'Content-Type': 'text/plain' };
    expect(await post('/fields', '{}', text)).to.deep.equal({
      status: 415,
      body: { code: 'X-415', message: 'Content-Type must be application/json', data: null },
    });
    expect(await post('/hub', '{}', text)).to.deep.equal({
      status: 400,
      body: { code: 'X-400', message: 'Content-Type must be application/json', data: { field: 'Content-Type' } },
    });
  });

  it("given notJsonFirst, when the Content-Type is wrong, then it is refused before the route's own checks", async () => {
    const wrong = { 'Content-Type': 'text/plain', 'X-Key': 'wrong' };
    expect((await post('/first', '{}', wrong)).status).to.equal(415);
    expect((await post('/fields', '{}', wrong)).status).to.equal(401);
  });

  it('given within, when the schema refuses, then the field is named inside it', async () => {
    expect((await post('/within', '{"name":1,"sizes":[]}')).body).to.deep.include({ data: { field: 'pricing.name' } });
  });

  it('given the malformed, the too large and the too many, when read, then the interface codes of json-body', async () => {
    expect((await post('/fields', '{')).body).to.deep.include({
      code: 'X-400',
      message: 'request body is not valid JSON',
    });
    expect((await post('/fields', JSON.stringify({ name: 'x'.repeat(2000) }))).status).to.equal(413);
    expect((await post('/fields', JSON.stringify({ name: 'a', sizes: Array(11).fill(1) }))).body).to.deep.include({
      message: 'request body has more than 10 array elements',
    });
  });

  it('given a raw body, when read, then its text as sent, then parsed within the budget by the schema', async () => {
    const sent = '{"name":"a", "sizes":[2]}';
    expect(await post('/raw', sent, { 'Content-Type': 'text/plain' })).to.deep.equal({
      status: 200,
      body: { text: sent, read: { name: 'a', sizes: [2] } },
    });
    expect((await post('/raw', '{"name":"a","sizes":[' + '1,'.repeat(10) + '1]}')).status).to.equal(400);
  });
});
