/**
 * Query parameters of the shop's GET endpoints, read the same way everywhere
 * (docs/shop-api.md, "Catalog"): a value that does not fit is 400
 * SHOP-REQ-001 naming the parameter.
 */
import type { Request } from 'express';
import { shopChannels, type PageRequest, type ShopChannel } from '../../application/shop/index.js';
import { HttpError } from '../shared/interface-errors.js';

/** Limits of the spec (000, "Limits"); a larger size is clamped. */
export const catalogLimits = {
  list: { defaultSize: 20, maxSize: 50 },
  carousel: { defaultSize: 10, maxSize: 50 },
  vouchersPerCampaign: { default: 10, max: 50 },
};

const maxListItems = 100;
const tagPattern = /^[A-Z0-9_]{1,32}$/;

const refuse = (message: string) => new HttpError(400, 'SHOP-REQ-001', message);

/** One value of a parameter sent at most once; undefined when absent. */
function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw refuse(`${name} must be sent once, as a plain value`);
  return value;
}

/** A list sent comma-separated, repeated (`a=1&a=2`), or both; blank items are dropped; undefined when absent or blank. */
function list(req: Request, name: string): string[] | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  const parts =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : undefined;
  if (!parts) throw refuse(`${name} must be a comma-separated list`);
  const items = parts
    .flatMap((p) => p.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length > maxListItems) throw refuse(`${name} holds at most ${maxListItems} values`);
  return items.length > 0 ? [...new Set(items)] : undefined;
}

/**
 * A plain decimal integer (digits only); one too large to be exact as a
 * number counts as Number.MAX_SAFE_INTEGER, which is past any page, size or
 * id, so it gets what any value past them gets (a clamped size, an empty
 * page, no match). NaN for anything else.
 */
function decimal(value: string): number {
  if (!/^\d+$/.test(value)) return NaN;
  return value.length > 15 ? Number.MAX_SAFE_INTEGER : Number(value);
}

/** An integer >= `min` in decimal digits, or undefined when absent. */
function integer(req: Request, name: string, min: number): number | undefined {
  const value = single(req, name);
  if (value === undefined) return undefined;
  const n = decimal(value);
  if (!(n >= min)) throw refuse(`${name} must be an integer >= ${min}`);
  return n;
}

/**
 * page (0-indexed, default 0) and size (default `defaultSize`): page < 0,
 * size < 1 or a non-integer is refused; a size above `maxSize` is clamped to it.
 */
export function pageParams(req: Request, defaults: { defaultSize: number; maxSize: number }): PageRequest {
  const page = integer(req, 'page', 0) ?? 0;
  const size = integer(req, 'size', 1) ?? defaults.defaultSize;
  return { page, size: Math.min(size, defaults.maxSize) };
}

/** channel: APP (default) or WEB. */
export function channelParam(req: Request): ShopChannel {
  const value = single(req, 'channel');
  if (value === undefined) return 'APP';
  if (!(shopChannels as readonly string[]).includes(value))
    throw refuse(`channel must be one of ${shopChannels.join(', ')}`);
  return value as ShopChannel;
}

/** Campaign tags from `tags` (comma-separated) or, when `tags` is absent or blank, `tag`; undefined: no tag filter. */
export function tagParams(req: Request): string[] | undefined {
  const tags = list(req, 'tags');
  const tag = tags ? undefined : single(req, 'tag')?.trim();
  const [name, values] = tags ? ['tags', tags] : ['tag', tag ? [tag] : undefined];
  if (!values) return undefined;
  if (!values.every((t) => tagPattern.test(t)))
    throw refuse(`${name} must hold tags of 1 to 32 upper-case letters, digits or "_" (e.g. HOT_DEAL)`);
  return values;
}

/** A list of ids (integers >= 0), comma-separated or repeated; undefined when absent. */
export function idListParam(req: Request, name: string): number[] | undefined {
  const items = list(req, name);
  if (!items) return undefined;
  return items.map((item) => {
    const id = decimal(item);
    if (Number.isNaN(id)) throw refuse(`${name} must be a comma-separated list of integers >= 0`);
    return id;
  });
}

/** true or false; `fallback` when absent. */
export function booleanParam(req: Request, name: string, fallback: boolean): boolean {
  const value = single(req, name);
  if (value === undefined) return fallback;
  if (value !== 'true' && value !== 'false') throw refuse(`${name} must be true or false`);
  return value === 'true';
}

/** An integer >= 1, `fallback` when absent, clamped to `max`. */
export function countParam(req: Request, name: string, fallback: number, max: number): number {
  return Math.min(integer(req, name, 1) ?? fallback, max);
}
