/**
 * Control characters are refused at the edge (docs/conventions.md, "Routes"; the rule in docs/shop-api.md,
 * "Text fields"): every string of a request's path parameters, query and JSON body, keys included. A NUL, for
 * one, reaches no text or jsonb column of PostgreSQL, so an event holding it could not be projected; what no read
 * model can show is not accepted in the first place. TAB, LF and CR stay allowed: free text may hold them.
 */
import type { RequestHandler } from 'express';

/** C0 controls but TAB, LF and CR; DEL; a UTF-16 surrogate that is not half of a pair (no character at all). */
const forbidden =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A request refused for a control character; each interface answers it with its own code for invalid input. */
export class ControlCharacterError extends Error {
  readonly type = 'request.control.character';
  constructor(readonly field: string) {
    super(`${field} contains a control character or a lone surrogate, which no field accepts`);
    this.name = 'ControlCharacterError';
  }
}

const refused = (text: string): boolean => forbidden.test(text);

/** The first field of `value` (named as `orderId`, `banners[0].title`) holding a refused character, if any. */
export function controlCharacterField(value: unknown, field: string): string | undefined {
  const path = refusedPath(value);
  if (!path) return undefined;
  return path.reduce<string>(
    (name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${part}` : part),
    field,
  );
}

/**
 * The path to the first refused string or key, or undefined: names are only made for a refusal, since a request
 * that holds none (nearly all) was paying for a name per field (a flash-sale reserve, docs/batched-stream-writer.md).
 */
function refusedPath(value: unknown): (string | number)[] | undefined {
  if (typeof value === 'string') return refused(value) ? [] : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = refusedPath(value[i]);
      if (path) return [i, ...path];
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (refused(key)) return [key];
      const path = refusedPath((value as Record<string, unknown>)[key]);
      if (path) return [key, ...path];
    }
  }
  return undefined;
}

/** Before a route's handler: refuses a request with a control character in its path parameters, query or body. */
export const refuseControlCharacters: RequestHandler = (req, _res, next) => {
  const field =
    controlCharacterField(req.params, '') ??
    controlCharacterField(req.query, '') ??
    (req.body !== undefined ? controlCharacterField(req.body, '') : undefined);
  next(field === undefined ? undefined : new ControlCharacterError(field || 'body'));
};
