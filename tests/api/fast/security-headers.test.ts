import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { Router } from 'express';
import { Histogram, Registry } from 'prom-client';
import winston from 'winston';
import { createHttpApp, listen } from '../../../api/shared/http-app.js';
import { interfaceErrorHandler } from '../../../api/shared/interface-errors.js';
import { InMemoryEventStore } from '../../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { InMemoryNumericIds } from '../../../infrastructure/shared/in-memory-numeric-ids.js';
import { createLogger } from '../../../infrastructure/shared/logger.js';
import { buildFastApp } from '../../support/fast-app.js';
import { operatorHeaders } from '../support.js';

const securityHeaders = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

describe('Every answer carries the security headers and is never cached (docs/operations.md)', () => {
  it('on a success, a refusal, an unknown path and /health', async () => {
    const clock = { now: () => new Date('2026-03-01T10:00:00.000Z') };
    const app = buildFastApp({ store: new InMemoryEventStore(), ids: new InMemoryNumericIds(), clock });
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const answers = [
        await fetch(`${base}/operator/v1/voucher-categories`, {
          method: 'POST',
          headers: { ...operatorHeaders(), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Du lịch' }),
        }),
        await fetch(`${base}/api/v1/vouchers/reserve`, { method: 'POST' }),
        await fetch(`${base}/nowhere`),
        await fetch(`${base}/health`),
      ];
      expect(answers.map((a) => a.status)).to.deep.equal([201, 401, 404, 200]);
      for (const answer of answers)
        for (const [name, value] of Object.entries(securityHeaders))
          expect(answer.headers.get(name), `${answer.url}: ${name}`).to.equal(value);
      expect(answers[0]!.headers.get('x-powered-by')).to.equal(null);
    } finally {
      await server.close(100);
    }
  });
});

describe('The access log (docs/operations.md, "Logs")', () => {
  it('records the full path, the status, who called and the request and correlation ids, never a credential', async () => {
    const logger = createLogger('http');
    const out = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    out.on('data', (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      ),
    );
    logger.clear();
    logger.add(new winston.transports.Stream({ stream: out }));
    const router = Router();
    router.get('/things/:id', (_req, res) => {
      res.locals.caller = { merchantId: 'M1', userId: 'u-1' };
      res.json({ ok: true });
    });
    router.get('/broken', () => {
      throw new Error('boom');
    });
    router.use(
      interfaceErrorHandler(
        {
          name: 'test',
          table: {},
          malformed: { invalid: 'BAD', tooLarge: 'LARGE', unsupportedMediaType: 'TYPE' },
          unknownEndpoint: 'NONE',
          internal: { code: 'INTERNAL', message: 'internal error' },
          send: (res, status, code, message) => res.status(status).json({ code, message }),
        },
        logger,
      ),
    );
    const registry = new Registry();
    const app = createHttpApp({
      logger,
      routers: [{ path: '/api/v1', router }],
      ready: async () => ({ ready: true, checks: {} }),
      metrics: registry,
      requestDuration: new Histogram({
        name: 'd',
        help: 'd',
        labelNames: ['method', 'route', 'status_code'],
        registers: [registry],
      }),
    });
    const server = await listen(app, 0, '127.0.0.1');
    try {
      await fetch(`http://127.0.0.1:${server.port}/api/v1/things/7?page=2`, {
        headers: { client_secret: 's3cret', 'x-request-id': 'req-7', 'x-correlation-id': 'checkout-42' },
      });
      const broken = await fetch(`http://127.0.0.1:${server.port}/api/v1/broken`, {
        headers: { 'x-request-id': 'req-8' },
      });
      expect(broken.status).to.equal(500);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await server.close(100);
    }
    const line = lines.find((l) => l.message === 'request');
    expect(line).to.include({
      method: 'GET',
      path: '/api/v1/things/7?page=2',
      status: 200,
      merchantId: 'M1',
      userId: 'u-1',
      requestId: 'req-7',
      correlationId: 'checkout-42',
    });
    // An error line written for a request names it too (the correlation id is the request id when none was given).
    expect(lines.find((l) => l.message === 'test request failed')).to.include({
      path: '/broken',
      requestId: 'req-8',
      correlationId: 'req-8',
    });
    expect(lines.find((l) => l.message === 'request' && l.status === 500)).to.include({ requestId: 'req-8' });
    expect(JSON.stringify(lines)).not.to.include('s3cret');
  });
});
