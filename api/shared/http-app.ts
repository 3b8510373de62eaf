import http from 'node:http';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Histogram, Registry } from 'prom-client';
import swaggerUi from 'swagger-ui-express';
import type { Logger } from '../../application/shared/logger.js';
import { loggedUrl } from './logged-url.js';
import { boundUnreadBody } from './unread-body.js';
import { logContextOf, requestContext } from './request-context.js';

export interface HttpAppOptions {
  logger: Logger;
  /** Interface routers, each with its own auth, envelope and error mapping. */
  routers: { path: string; router: Router }[];
  /** Readiness: every dependency this process needs answers; `roles`: what its background roles report (lag). */
  ready: () => Promise<{ ready: boolean; checks: Record<string, boolean>; roles?: unknown }>;
  /** What GET /metrics answers: this process's registry, or the whole service's (api workers). */
  metrics: Pick<Registry, 'contentType' | 'metrics'>;
  /** Observes every answer's duration by method, route pattern and status. */
  requestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Served at /openapi.json and, browsable, at /docs (assets from swagger-ui-dist, nothing fetched at run time). */
  openApi?: object;
  /** Before /metrics, /openapi.json and /docs: who may read them (default: anyone; docs/operations.md). */
  operationsGuard?: RequestHandler;
  /**
   * Whether a /ready request may see the details (checks, roles, lag); default: every request. Otherwise it gets the
   * status code and `{status}` only, which is all a load balancer needs (docs/operations.md, "Health").
   */
  readyDetailsFor?: (req: express.Request) => boolean;
}

/**
 * Who made the request, for the access log: the operator's name, the merchant (and user) the shop's key named, the
 * gateway party; names only, never a credential.
 */
function actorOf(locals: Record<string, unknown>): Record<string, string> {
  const actor: Record<string, string> = {};
  if (typeof locals.operator === 'string') actor.operator = locals.operator;
  const caller = locals.caller as { merchantId?: unknown; userId?: unknown } | undefined;
  if (typeof caller?.merchantId === 'string') actor.merchantId = caller.merchantId;
  if (typeof caller?.userId === 'string') actor.userId = caller.userId;
  const gateway = locals.gateway as { partyId?: unknown } | undefined;
  if (typeof gateway?.partyId === 'string') actor.party = gateway.partyId;
  return actor;
}

/**
 * Headers on every answer (docs/operations.md, "Security headers"): no sniffing, framing or referrer; answers are
 * never stored by a cache on the way (they carry voucher codes, tokens, a buyer's data); JSON answers may load
 * nothing. A route serving a page of its own (the API docs, a consent page) sets its own Content-Security-Policy.
 */
const securityHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  if (!req.path.startsWith('/docs'))
    res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  next();
};

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext);
  // A request answered before its body ended (refused early) has the rest drained, up to a bound (unread-body.ts).
  app.use(boundUnreadBody);
  app.use(securityHeaders);
  const logging = options.logger.isLevelEnabled('http');
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route's pattern, not the path, so that ids do not make a series each.
      const route = req.route ? req.baseUrl + (req.route as { path: string }).path : 'unmatched';
      options.requestDuration.observe({ method: req.method, route, status_code: res.statusCode }, seconds);
      if (logging)
        options.logger.http('request', {
          method: req.method,
          // Credentials in the query (the sandbox page's token) are redacted: logs are read by more people than they.
          path: loggedUrl(req.originalUrl),
          status: res.statusCode,
          durationMs: Math.round(seconds * 1e4) / 10,
          ...actorOf(res.locals),
          ...logContextOf(res),
        });
    });
    next();
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'UP' });
  });
  const readyDetailsFor = options.readyDetailsFor ?? (() => true);
  app.get('/ready', async (req, res) => {
    const result = await options.ready().catch(() => ({ ready: false, checks: {}, roles: undefined }));
    const status = result.ready ? 'READY' : 'NOT_READY';
    res
      .status(result.ready ? 200 : 503)
      .json(readyDetailsFor(req) ? { status, checks: result.checks, roles: result.roles } : { status });
  });
  const operations: RequestHandler = options.operationsGuard ?? ((_req, _res, next) => next());
  app.get('/metrics', operations, async (_req, res) => {
    try {
      const text = await options.metrics.metrics();
      res.setHeader('Content-Type', options.metrics.contentType);
      res.send(text);
    } catch (error) {
      options.logger.error('metrics could not be gathered', { error });
      res.status(503).type('text/plain').send('metrics unavailable\n');
    }
  });

  if (options.openApi) {
    const document = options.openApi;
    app.get('/openapi.json', operations, (_req, res) => {
      res.json(document);
    });
    // serveFiles (not serve): its init script belongs to this app, not to the last one set up in the process.
    app.use(
      '/docs',
      operations,
      swaggerUi.serveFiles(document),
      swaggerUi.setup(document, { customSiteTitle: 'Super-app commerce backend API' }),
    );
  }

  for (const { path, router } of options.routers) app.use(path, router);

  app.use((req, res) => {
    res.status(404).json({ code: 'NOT_FOUND', message: `no endpoint ${req.method} ${req.path}`, data: null });
  });
  // Last resort: routers handle their own errors; this only sees errors outside them.
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = typeof (err as { status?: unknown }).status === 'number' ? (err as { status: number }).status : 500;
    if (status >= 500) options.logger.error('unhandled error', { ...logContextOf(res), err });
    res.status(status >= 400 && status < 600 ? status : 500).json({
      code: status < 500 ? 'BAD_REQUEST' : 'INTERNAL_ERROR',
      message: status < 500 ? 'bad request' : 'internal error',
      data: null,
    });
  });
  return app;
}

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting connections and waits for in-flight requests, at most timeoutMs. */
  close(timeoutMs: number): Promise<void>;
}

export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(app);
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        server,
        port: typeof address === 'object' && address ? address.port : port,
        close: (timeoutMs) =>
          new Promise<void>((done) => {
            const timer = setTimeout(() => {
              server.closeAllConnections();
              done();
            }, timeoutMs);
            timer.unref();
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
