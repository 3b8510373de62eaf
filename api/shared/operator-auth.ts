import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Operator API authentication: `Authorization: Bearer <token>`, tokens from
 * OPERATOR_TOKENS (name=token). The token's name is the operator recorded as
 * the actor of every change. Compared as sha256 digests in constant time.
 */
export function operatorAuth(
  tokens: { name: string; token: string }[],
  refuse: (res: Parameters<RequestHandler>[1], message: string) => void,
): RequestHandler {
  const known = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  return (req, res, next) => {
    const header = req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) return refuse(res, 'Authorization: Bearer <operator token> is required');
    const given = digest(match[1]!);
    let operator: string | undefined;
    for (const k of known) if (timingSafeEqual(k.digest, given)) operator = k.name;
    if (!operator) return refuse(res, 'operator token is invalid');
    res.locals.operator = operator;
    next();
  };
}
