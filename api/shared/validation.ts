import type { ZodError, ZodIssue } from 'zod';

/** One readable sentence naming the first offending field, for a 400's message. */
export function describeZodError(error: ZodError, where: 'body' | 'query' | 'path' | 'header'): string {
  const issue: ZodIssue = error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : where;
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `${field} is required`;
  return `${field}: ${issue.message}`;
}
