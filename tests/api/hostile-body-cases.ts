/**
 * The bodies and targets of tests/api/hostile-bodies.test.ts (docs/conventions.md, "Request bodies"): a raw
 * HTTP sender, the hostile bodies each interface is sent, the shape-costly ones of its size limit and the costliest
 * shape it accepts.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';

export interface Answer {
  status: number;
  text: string;
  type: string;
}

/** One request over a fresh connection; an answer sent before the body was read whole still counts as the answer. */
export function send(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const length = body ? { 'Content-Length': String(body.length) } : {};
    const req = http.request(url, { method, headers: { ...length, ...headers }, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          text: Buffer.concat(chunks).toString('utf8'),
          type: String(res.headers['content-type'] ?? ''),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}

export const levels = 10_000;
export const branchDepth = 4_000;
export const nestedArrays = (n: number, inner = '0') => '['.repeat(n) + inner + ']'.repeat(n);
export const nestedObjects = (n: number, inner = '0') => '{"a":'.repeat(n) + inner + '}'.repeat(n);
/** As many branches `branchDepth` deep as fit in `bytes` (at least one), as the values of an object's keys. */
export function branches(bytes: number): string {
  const branch = nestedArrays(branchDepth);
  const count = Math.max(1, Math.floor((bytes - 1024) / (branch.length + 8)));
  return `{${Array.from({ length: count }, (_, i) => `"b${i}":${branch}`).join(',')}}`;
}

export type Problem = 'invalid' | 'tooLarge' | 'unsupportedMediaType';
export const statusOf: Record<Problem, number> = { invalid: 400, tooLarge: 413, unsupportedMediaType: 415 };

/** A hostile body: its bytes and headers, and the refusal it must get (or only "not a 5xx" when its meaning decides). */
export interface Hostile {
  name: string;
  bytes: Buffer;
  headers?: Record<string, string>;
  expected: Problem | 'not5xx';
}

/** An interface's endpoint that reads a body, as its real caller calls it. */
export interface Target {
  name: string;
  method: string;
  path: string;
  /** Its body limit in bytes. */
  limit: number;
  /** Its count budget: object members and array elements (api/shared/json-shape.ts). */
  budget: { members: number; elements: number };
  /** What its envelope answers for each body problem: a code (in `code`, or `error` for OAuth), or only a status. */
  codes: Record<Problem, string> | 'status-only';
  /** The body's media type. */
  type: string;
  headers(body: Buffer): Record<string, string>;
  /** A valid body of the endpoint with `inner` (JSON text) at a free-form place, to carry deep nesting past its schema. */
  around?(inner: string): string;
}

/** The hostile bodies every JSON target gets; `limit` sizes the ones that fill or pass it. */
export function hostileJson(target: Target): Hostile[] {
  const wrap = target.around ?? ((inner: string) => `{"x":${inner}}`);
  const text = (name: string, body: string, expected: Hostile['expected']): Hostile => ({
    name,
    bytes: Buffer.from(body, 'utf8'),
    expected,
  });
  const sized = (name: string, body: string): Hostile =>
    text(name, body, Buffer.byteLength(body) > target.limit ? 'tooLarge' : 'invalid');
  const valid = Buffer.from(wrap('{}'));
  return [
    sized(`arrays ${levels} deep`, nestedArrays(levels)),
    sized(`objects ${levels} deep`, nestedObjects(levels)),
    sized(`arrays ${levels} deep inside a valid body`, wrap(nestedArrays(levels))),
    sized(`branches ${branchDepth} deep filling the limit`, wrap(branches(target.limit))),
    {
      name: 'corrupt gzip',
      bytes: Buffer.concat([gzipSync(valid).subarray(0, 12), randomBytes(64)]),
      headers: { 'Content-Encoding': 'gzip' },
      expected: 'invalid',
    },
    {
      name: 'corrupt deflate',
      bytes: randomBytes(64),
      headers: { 'Content-Encoding': 'deflate' },
      expected: 'invalid',
    },
    {
      name: 'gzip truncated',
      bytes: gzipSync(valid).subarray(0, 20),
      headers: { 'Content-Encoding': 'gzip' },
      expected: 'invalid',
    },
    {
      name: 'an unknown encoding (br)',
      bytes: valid,
      headers: { 'Content-Encoding': 'br' },
      expected: 'unsupportedMediaType',
    },
    {
      name: 'a charset other than UTF-8',
      bytes: valid,
      headers: { 'Content-Type': `${target.type}; charset=utf-16le` },
      expected: 'unsupportedMediaType',
    },
    text('past the limit', `{"x":"${'a'.repeat(target.limit)}"}`, 'tooLarge'),
    {
      name: 'gzip inflating past the limit',
      bytes: gzipSync(Buffer.from(`{"x":"${' '.repeat(target.limit * 4)}"}`)),
      headers: { 'Content-Encoding': 'gzip' },
      expected: 'tooLarge',
    },
    text('NUL in a value', wrap('{"k":"a\\u0000b"}'), 'invalid'),
    text('NUL in a key', wrap('{"k\\u0000":1}'), 'invalid'),
    text('a lone surrogate in a value', wrap('{"k":"\\ud800"}'), 'invalid'),
    text('a lone surrogate in a key', wrap('{"\\udfffk":1}'), 'invalid'),
    text('huge numbers', wrap(`{"n":1e400,"m":-1e400,"i":${'9'.repeat(100)}}`), 'not5xx'),
    text('huge numbers in every field', hugeNumbersEverywhere(wrap('{}')), 'not5xx'),
    text('repeated keys', wrap('{"a":1,"a":{"b":2},"a":[3]}'), 'not5xx'),
    text('an array at the top', '[{}]', 'not5xx'),
    text('a string at the top', '"x"', 'not5xx'),
    text('a number at the top', '1e400', 'not5xx'),
    text('null at the top', 'null', 'not5xx'),
    text('not JSON', '{"a":', 'invalid'),
    ...shapeCostly(target),
  ];
}

/**
 * The bodies of the size limit whose shape JSON.parse pays most for (docs/conventions.md, "Request bodies"): many
 * distinct keys in one object (for the order webhook, its free-form metadata map), many small objects of distinct
 * keys, many empty objects; each past the interface's count budget, so refused before JSON.parse as invalid input.
 */
export function shapeCostly(target: Target): Hostile[] {
  const wrap = target.around ?? ((inner: string) => `{"x":${inner}}`);
  const room = target.limit - Buffer.byteLength(wrap('{}')) - 64;
  const filling = (piece: (i: number) => string, open: string, close: string) => {
    const parts: string[] = [];
    for (let i = 0, bytes = 2; bytes + piece(i).length + 1 <= room; i++) {
      parts.push(piece(i));
      bytes += piece(i).length + 1;
    }
    return `${open}${parts.join(',')}${close}`;
  };
  const body = (name: string, inner: string): Hostile => ({
    name,
    bytes: Buffer.from(wrap(inner)),
    expected: 'invalid',
  });
  return [
    body(
      'distinct keys filling the limit (a wide map)',
      filling((i) => `"k${i}":1`, '{', '}'),
    ),
    body(
      'small objects of distinct keys filling the limit',
      filling((i) => smallObject(i), '[', ']'),
    ),
    body(
      'empty objects filling the limit',
      filling(() => '{}', '[', ']'),
    ),
    body(
      'numbers filling the limit',
      filling(() => '1', '[', ']'),
    ),
  ];
}
export const smallObject = (i: number) => `{"a${i}":1,"b${i}":2,"c${i}":3,"d${i}":4}`;

/**
 * The costliest body the interface's budget accepts: small objects of four distinct keys, as many as its member
 * budget leaves past the valid body around them (within the size limit). It reaches the parser and the walks after
 * it; the handler may still refuse it (a schema, a signature), never with a 5xx.
 */
export function worstAccepted(target: Target): Hostile {
  const wrap = target.around ?? ((inner: string) => `{"x":${inner}}`);
  const around = Buffer.from(wrap('{}')).toString();
  const aroundMembers = (around.match(/":/g) ?? []).length;
  const aroundElements = (around.match(/\[(?!\])|,/g) ?? []).length;
  const objects = Math.min(
    Math.floor((target.budget.members - aroundMembers) / 4),
    target.budget.elements - aroundElements,
    Math.floor((target.limit - around.length) / (smallObject(999_999).length + 1)),
  );
  const inner = `[${Array.from({ length: objects }, (_, i) => smallObject(i)).join(',')}]`;
  return {
    name: `the worst accepted shape (${objects * 4} distinct keys)`,
    bytes: Buffer.from(wrap(inner)),
    expected: 'not5xx',
  };
}

/** A valid body with every number made 1e400 and every string a 100-digit number. */
export function hugeNumbersEverywhere(body: string): string {
  return body.replace(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g, '1e400').replace(/"[^"]*"(?=\s*[,}\]])/g, `${'9'.repeat(100)}`);
}
