import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The operator whose token `req` carries (Authorization: Bearer), or undefined: compared in constant time. */
export function operatorOf(tokens: { name: string; token: string }[]): (req: Request) => string | undefined {
  const known = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  return (req) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '');
    if (!match) return undefined;
    const given = digest(match[1]!);
    let operator: string | undefined;
    for (const k of known) if (timingSafeEqual(k.digest, given)) operator = k.name;
    return operator;
  };
}

/**
 * Operator API authentication: `Authorization: Bearer <token>`, tokens from
 * OPERATOR_TOKENS (name=token). The token's name is the operator recorded as
 * the actor of every change. Compared as sha256 digests in constant time.
 */
export function operatorAuth(
  tokens: { name: string; token: string }[],
  refuse: (res: Parameters<RequestHandler>[1], message: string) => void,
): RequestHandler {
  const operatorIn = operatorOf(tokens);
  return (req, res, next) => {
    if (!/^Bearer\s+\S+$/i.test(req.header('authorization') ?? ''))
      return refuse(res, 'Authorization: Bearer <operator token> is required');
    const operator = operatorIn(req);
    if (!operator) return refuse(res, 'operator token is invalid');
    res.locals.operator = operator;
    next();
  };
}
