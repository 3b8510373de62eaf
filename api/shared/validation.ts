import type { Request } from 'express';
import type { ZodError, ZodIssue } from 'zod';

/** One readable sentence naming the first offending field, for a 400's message. */
export function describeZodError(error: ZodError, where: 'body' | 'query' | 'path' | 'header'): string {
  const issue: ZodIssue = error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : where;
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `${field} is required`;
  return `${field}: ${issue.message}`;
}

/**
 * The field a zod issue is about, named as the operator API names fields: `banners[0].channelCode`; for a key the
 * schema does not allow, that key (`display.subtitle`).
 */
export function issueField(issue: ZodIssue): string {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/** One readable sentence about a zod issue, starting with the field's name. */
export function issueMessage(issue: ZodIssue, field: string): string {
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `${field} is required`;
  return `${field}: ${issue.message}`;
}

/** A UUID in lower case, as this service writes them (its ids, the keys it answers). */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether the request's body is JSON (`req.is('application/json')`), with the values clients send nearly always
 * answered by a string comparison: type-is parses the header on every call, a few microseconds of every hot write.
 */
export function isJsonRequest(req: Request): boolean {
  const { headers } = req;
  const type = headers['content-type'];
  // type-is counts a request with a length or a transfer encoding as one with a body; without, req.is answers null.
  const body = headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
  if (body && (type === 'application/json' || type === 'application/json; charset=utf-8')) return true;
  return Boolean(req.is('application/json'));
}
