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
  if (!holdsRefused(value)) return undefined;
  const path = firstRefusedPath(value)!;
  return path.reduce<string>(
    (name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${part}` : part),
    field,
  );
}

/** An array or object to look into; JSON holds no other objects, and a raw body's bytes (a Buffer) are not text. */
const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';
const isRoot = (value: unknown): value is object => isContainer(value) && !ArrayBuffer.isView(value);

/**
 * The containers still to look at, reused by every call (the walk is synchronous) so that a walk allocates nothing;
 * the slots used are cleared after it, so that no request's values are kept.
 */
const pending: object[] = [];

/**
 * Whether any string or key of `value` is refused: an explicit stack rather than recursion, so that no nesting can
 * overflow the call stack, visiting each value once, and allocating nothing (no names, no frames), since a request
 * that holds no refusal (nearly all) would pay for them on every field (a flash-sale reserve,
 * docs/batched-stream-writer.md). The order of the visit does not matter here: `firstRefusedPath` names the field.
 */
function holdsRefused(root: unknown): boolean {
  if (typeof root === 'string') return refused(root);
  if (!isRoot(root)) return false;
  let top = 0;
  let used = 0;
  let found = false;
  pending[top++] = root;
  walk: while (top > 0) {
    if (top > used) used = top;
    const value = pending[--top] as Record<string, unknown>;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') {
          if (refused(item)) {
            found = true;
            break walk;
          }
        } else if (isContainer(item)) pending[top++] = item;
      }
    } else
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item = value[key];
        if (refused(key) || (typeof item === 'string' && refused(item))) {
          found = true;
          break walk;
        }
        if (isContainer(item)) pending[top++] = item;
      }
  }
  if (top > used) used = top;
  pending.fill(cleared, 0, used);
  return found;
}
const cleared = Object.freeze({});

interface Frame {
  value: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  next: number;
}

/**
 * The path to the first refused string or key in document order (a key before its value), or undefined: walked only
 * once `holdsRefused` found one, with frames on an explicit stack.
 */
function firstRefusedPath(root: unknown): (string | number)[] | undefined {
  if (typeof root === 'string') return refused(root) ? [] : undefined;
  if (!isRoot(root)) return undefined;
  const frameOf = (value: object): Frame =>
    Array.isArray(value)
      ? { value, keys: undefined, next: 0 }
      : { value: value as Record<string, unknown>, keys: Object.keys(value), next: 0 };
  const path: (string | number)[] = [];
  const frames: Frame[] = [frameOf(root)];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { value, keys } = frame;
    if (frame.next >= (keys ? keys.length : (value as unknown[]).length)) {
      frames.pop();
      path.pop();
      continue;
    }
    const index = frame.next++;
    const part = keys ? keys[index]! : index;
    if (typeof part === 'string' && refused(part)) return [...path, part];
    const item = keys ? (value as Record<string, unknown>)[part] : (value as unknown[])[index];
    if (typeof item === 'string') {
      if (refused(item)) return [...path, part];
    } else if (isContainer(item)) {
      path.push(part);
      frames.push(frameOf(item));
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
