import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { expect } from 'chai';
import express from 'express';
import { isJsonRequest } from '../../../api/shared/validation.js';

/** Sends a raw request (any headers, a body or none) and answers what the server found. */
function ask(port: number, method: string, headers: Record<string, string>, body?: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/', headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('isJsonRequest', () => {
  let server: http.Server;
  let port: number;
  before(async () => {
    const app = express();
    app.all('/', (req, res) => {
      res.json({ fast: isJsonRequest(req), typeIs: Boolean(req.is('application/json')) });
    });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases: [string, string, Record<string, string>, string | undefined][] = [
    ['plain JSON', 'POST', { 'content-type': 'application/json' }, '{}'],
    ['JSON with charset', 'POST', { 'content-type': 'application/json; charset=utf-8' }, '{}'],
    ['JSON in capitals, charset without a space', 'POST', { 'content-type': 'Application/JSON;charset=UTF-8' }, '{}'],
    ['a +json type', 'POST', { 'content-type': 'application/vnd.api+json' }, '{}'],
    ['text', 'POST', { 'content-type': 'text/plain' }, '{}'],
    ['no type', 'POST', {}, '{}'],
    ['JSON type but no body at all', 'GET', { 'content-type': 'application/json' }, undefined],
    ['JSON type and an empty body', 'POST', { 'content-type': 'application/json', 'content-length': '0' }, ''],
    ['JSON type, chunked', 'POST', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, '{}'],
  ];
  for (const [name, method, headers, body] of cases) {
    it(`given ${name}, then it answers what req.is('application/json') answers`, async () => {
      const { fast, typeIs } = (await ask(port, method, headers, body)) as { fast: boolean; typeIs: boolean };
      expect(fast).to.equal(typeIs);
    });
  }
});
