/** Endpoint 3 of the shop interface: GET /vouchers/search (route in catalog-routes.ts, docs/shop-search.md). */
import { Router, type Request } from 'express';
import { type ShopCredentials, searchPageSize, type VoucherSearch } from '../../application/shop/index.js';
import { HttpError } from '../shared/interface-errors.js';
import { rawJson } from '../shared/route.js';
import { mount } from '../shared/route-spec.js';
import { shopAuth, type ShopCallerLocals } from './auth.js';
import { catalogRoutes } from './catalog-routes.js';
import { voucherPageJson } from './voucher-json.js';
import { channelParam, pageParams, tagParams } from './query-params.js';

const refuse = (message: string) => new HttpError(400, 'SHOP-REQ-001', message);

/**
 * Every value of the raw query parameter `name`, percent-decoded as UTF-8
 * (RFC 3986; '+' is a space). Read from the raw URL because express's query
 * parser keeps a malformed sequence as it is instead of refusing it.
 */
function rawParam(req: Request, name: string): string[] {
  const at = req.originalUrl.indexOf('?');
  if (at < 0) return [];
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  const values: string[] = [];
  for (const pair of req.originalUrl.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    const [key, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    let decodedKey: string;
    try {
      decodedKey = decode(key);
    } catch {
      continue; // not a name we read
    }
    if (decodedKey !== name) continue;
    try {
      values.push(decode(value));
    } catch {
      throw refuse(`${name} must be percent-encoded UTF-8`);
    }
  }
  return values;
}

/** q: sent once (absent: ''); its length and words are the search's to check. */
function keywordParam(req: Request): string {
  const values = rawParam(req, 'q');
  if (values.length > 1) throw refuse('q must be sent once');
  return values[0] ?? '';
}

/** A keyword too short is the spec's SHOP-VOU-002 (error-mapping.ts); the other refusals are the shop's usual ones. */
export function searchRouter(deps: { search: VoucherSearch; credentials: ShopCredentials }): Router {
  const router = Router();
  const auth = [shopAuth(deps.credentials, { requireUser: false })];
  mount(router, catalogRoutes.searchVouchers, auth, async (req, res) => {
    const { merchantId, userId } = res.locals.caller as ShopCallerLocals;
    const query = {
      q: keywordParam(req),
      tags: tagParams(req),
      channel: channelParam(req),
      ...pageParams(req, searchPageSize),
    };
    return rawJson(voucherPageJson(await deps.search.search(query, { merchantId, userId })));
  });
  return router;
}
