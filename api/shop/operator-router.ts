import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { isDomainError } from '../../domain/shared/errors.js';
import type { CampaignAdmin } from '../../application/shop/campaign-admin.js';
import type { CategoryAdmin } from '../../application/shop/category-admin.js';
import type { MerchantAdmin } from '../../application/shop/merchant-admin.js';
import type { VoucherPoolAdmin } from '../../application/shop/voucher-pool-admin.js';
import type { Logger } from '../../infrastructure/shared/logger.js';
import { operatorAuth } from '../shared/operator-auth.js';
import {
  addStockBody,
  campaignStatusBody,
  createCampaignBody,
  createPoolBody,
  issueApiKeyBody,
  poolPricingSchema,
  registerMerchantBody,
} from './operator-schemas.js';
import {
  campaignBannerBody,
  categoryNameBody,
  updateCampaignBannerBody,
  updateCampaignBody,
  updatePoolBody,
} from './operator-catalog-schemas.js';

/**
 * The shop's operator API (/operator/v1): merchants and their API keys,
 * voucher categories, campaigns and their banners, voucher pools. Event-sourced through the application services;
 * the authenticated operator is recorded as the actor of every change.
 * Envelope {code, message, data}; codes in docs/shop-api.md.
 */
export interface OperatorDeps {
  logger: Logger;
  operatorTokens: { name: string; token: string }[];
  merchants: MerchantAdmin;
  campaigns: CampaignAdmin;
  categories: CategoryAdmin;
  pools: VoucherPoolAdmin;
}

class OperatorHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: { field: string } | null = null,
  ) {
    super(message);
  }
}

function send(res: Response, status: number, code: string, message: string, data: unknown = null): void {
  res.status(status).json({ code, message, data });
}

function statusOf(domainCode: string): [number, string] {
  if (domainCode.endsWith('_NOT_FOUND')) return [404, 'OPS-NOT-FOUND'];
  if (domainCode.endsWith('_EXISTS') || domainCode === 'INVALID_STATUS_TRANSITION' || domainCode === 'CAMPAIGN_ENDED')
    return [409, 'OPS-CONFLICT'];
  return [400, 'OPS-REQ-001'];
}

const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (err, req, res, _next) => {
    if (err instanceof OperatorHttpError) return send(res, err.status, err.code, err.message, err.data);
    if (isDomainError(err)) {
      const [status, code] = statusOf(err.code);
      return send(res, status, code, err.message, err.details.field ? { field: err.details.field } : null);
    }
    if (err?.type === 'entity.parse.failed') return send(res, 400, 'OPS-REQ-001', 'request body is not valid JSON');
    if (err?.type === 'entity.too.large') return send(res, 413, 'OPS-REQ-413', 'request body is too large');
    if (err?.type === 'charset.unsupported' || err?.type === 'encoding.unsupported')
      return send(res, 415, 'OPS-REQ-415', 'request body must be UTF-8 JSON');
    if (err instanceof URIError) return send(res, 400, 'OPS-REQ-001', 'request path is not valid percent-encoding');
    logger.error('operator request failed', { method: req.method, path: req.path, err });
    send(res, 500, 'OPS-SYS-500', 'internal error');
  };

/** A field path as the services name fields: `banners[0].channelCode`. */
const fieldName = (path: (string | number)[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');

/**
 * The JSON object body, checked for shape and type by `schema`. `within`
 * prefixes field names where the body is one named part of the resource
 * (the pricing endpoint's body is the pool's `pricing`).
 */
function parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, req: Request, within?: string): T {
  if (!req.is('application/json'))
    throw new OperatorHttpError(415, 'OPS-REQ-415', 'Content-Type must be application/json');
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    throw new OperatorHttpError(400, 'OPS-REQ-001', 'body must be a JSON object');
  const parsed = schema.safeParse(req.body, { path: within ? [within] : [] });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fieldName(issue.path);
  const missing = issue.code === 'invalid_type' && issue.received === 'undefined';
  throw new OperatorHttpError(400, 'OPS-REQ-001', missing ? `${field} is required` : `${field}: ${issue.message}`, {
    field,
  });
}

function numericParam(req: Request, name: string): number {
  const raw = req.params[name] ?? '';
  if (!/^[1-9][0-9]{0,15}$/.test(raw))
    throw new OperatorHttpError(400, 'OPS-REQ-001', `${name} must be a positive integer`);
  return Number(raw);
}

type Handler = (req: Request, res: Response) => Promise<void>;
const route =
  (h: Handler): RequestHandler =>
  (req, res, next) => {
    h(req, res).catch(next);
  };

export function operatorRouter(deps: OperatorDeps): Router {
  const router = Router();
  router.use(operatorAuth(deps.operatorTokens, (res, message) => send(res, 401, 'OPS-AUTH-001', message)));
  router.use(express.json({ limit: '256kb' }));
  const op = (res: Response) => res.locals.operator as string;
  const ok = (res: Response, data: unknown, status = 200) => send(res, status, 'SUCCESS', 'Success', data);

  router.post(
    '/merchants',
    route(async (req, res) =>
      ok(res, await deps.merchants.register(op(res), parseBody(registerMerchantBody, req)), 201),
    ),
  );
  router.get(
    '/merchants/:merchantId',
    route(async (req, res) => ok(res, await deps.merchants.get(req.params.merchantId!))),
  );
  router.post(
    '/merchants/:merchantId/api-keys',
    route(async (req, res) =>
      ok(res, await deps.merchants.issueApiKey(op(res), req.params.merchantId!, parseBody(issueApiKeyBody, req)), 201),
    ),
  );
  router.post(
    '/merchants/:merchantId/api-keys/:apiKeyId/revoke',
    route(async (req, res) =>
      ok(res, await deps.merchants.revokeApiKey(op(res), req.params.merchantId!, numericParam(req, 'apiKeyId'))),
    ),
  );

  router.post(
    '/voucher-categories',
    route(async (req, res) => ok(res, await deps.categories.create(op(res), parseBody(categoryNameBody, req)), 201)),
  );
  router.get(
    '/voucher-categories',
    route(async (_req, res) => ok(res, await deps.categories.list())),
  );
  router.get(
    '/voucher-categories/:categoryId',
    route(async (req, res) => ok(res, await deps.categories.get(numericParam(req, 'categoryId')))),
  );
  router.patch(
    '/voucher-categories/:categoryId',
    route(async (req, res) =>
      ok(
        res,
        await deps.categories.rename(op(res), numericParam(req, 'categoryId'), parseBody(categoryNameBody, req).name),
      ),
    ),
  );

  router.post(
    '/campaigns',
    route(async (req, res) => ok(res, await deps.campaigns.create(op(res), parseBody(createCampaignBody, req)), 201)),
  );
  router.get(
    '/campaigns/:campaignId',
    route(async (req, res) => ok(res, await deps.campaigns.get(numericParam(req, 'campaignId')))),
  );
  router.post(
    '/campaigns/:campaignId/status',
    route(async (req, res) =>
      ok(
        res,
        await deps.campaigns.changeStatus(
          op(res),
          numericParam(req, 'campaignId'),
          parseBody(campaignStatusBody, req).status,
        ),
      ),
    ),
  );
  router.patch(
    '/campaigns/:campaignId',
    route(async (req, res) =>
      ok(
        res,
        await deps.campaigns.updateDetails(
          op(res),
          numericParam(req, 'campaignId'),
          parseBody(updateCampaignBody, req),
        ),
      ),
    ),
  );
  router.post(
    '/campaigns/:campaignId/banners',
    route(async (req, res) =>
      ok(
        res,
        await deps.campaigns.addBanner(op(res), numericParam(req, 'campaignId'), parseBody(campaignBannerBody, req)),
        201,
      ),
    ),
  );
  router.patch(
    '/campaigns/:campaignId/banners/:bannerId',
    route(async (req, res) =>
      ok(
        res,
        await deps.campaigns.updateBanner(
          op(res),
          numericParam(req, 'campaignId'),
          numericParam(req, 'bannerId'),
          parseBody(updateCampaignBannerBody, req),
        ),
      ),
    ),
  );
  router.delete(
    '/campaigns/:campaignId/banners/:bannerId',
    route(async (req, res) =>
      ok(
        res,
        await deps.campaigns.removeBanner(op(res), numericParam(req, 'campaignId'), numericParam(req, 'bannerId')),
      ),
    ),
  );

  router.post(
    '/voucher-pools',
    route(async (req, res) => ok(res, await deps.pools.create(op(res), parseBody(createPoolBody, req)), 201)),
  );
  router.get(
    '/voucher-pools/:poolId',
    route(async (req, res) => ok(res, await deps.pools.get(numericParam(req, 'poolId')))),
  );
  router.post(
    '/voucher-pools/:poolId/stock',
    route(async (req, res) =>
      ok(res, await deps.pools.addStock(op(res), numericParam(req, 'poolId'), parseBody(addStockBody, req).quantity)),
    ),
  );
  router.post(
    '/voucher-pools/:poolId/pricing',
    route(async (req, res) =>
      ok(
        res,
        await deps.pools.reprice(op(res), numericParam(req, 'poolId'), parseBody(poolPricingSchema, req, 'pricing')),
      ),
    ),
  );
  router.patch(
    '/voucher-pools/:poolId',
    route(async (req, res) =>
      ok(res, await deps.pools.update(op(res), numericParam(req, 'poolId'), parseBody(updatePoolBody, req))),
    ),
  );
  router.delete(
    '/voucher-pools/:poolId',
    route(async (req, res) => ok(res, await deps.pools.delete(op(res), numericParam(req, 'poolId')))),
  );

  router.use((req, res) => send(res, 404, 'OPS-NOT-FOUND', `no endpoint ${req.method} ${req.baseUrl}${req.path}`));
  router.use(errorHandler(deps.logger));
  return router;
}
