/** Query parameters parsed by their zod schema, refused in the interface's own terms naming the parameter. */
import type { Request } from 'express';
import type { z } from 'zod';
import { HttpError } from '../shared/interface-errors.js';
import { issueField, issueMessage } from '../shared/validation.js';

export function queryOf<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  req: Request,
  refusal: readonly [status: number, code: string],
): T {
  const parsed = schema.safeParse(req.query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issueField(issue);
  throw new HttpError(refusal[0], refusal[1], issueMessage(issue, field), { field });
}
