/**
 * Forms of input every interface's zod schemas share: trimmed text, integers, enums with a readable refusal, URLs,
 * date-times with an offset answered in UTC (docs/conventions.md, "Commands are typed"). A context's own fields are in
 * its api/<context>/*-schemas.ts.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { characters } from '../../application/shared/characters.js';

extendZodWithOpenApi(z);

type LengthCheck = Extract<z.ZodStringCheck, { kind: 'min' | 'max' | 'length' }>;
const isLength = (check: z.ZodStringCheck): check is LengthCheck =>
  check.kind === 'min' || check.kind === 'max' || check.kind === 'length';

/**
 * The string schema with its `.min`, `.max` and `.length` counted in characters (code points: an emoji is one) instead
 * of zod's UTF-16 units (docs/conventions.md, "Text lengths"). A refusal is the issue zod's own check would raise
 * (`too_small`/`too_big`, its message, zod's default when none was given), after the schema's other checks; the
 * OpenAPI document keeps minLength and maxLength, which JSON Schema counts in code points too. Wrap the whole chain:
 * `inCharacters(z.string().trim().min(1, '...').max(64, '...'))`.
 */
export function inCharacters(schema: z.ZodString) {
  const lengths = schema._def.checks.filter(isLength);
  const rest = new z.ZodString({ ...schema._def, checks: schema._def.checks.filter((c) => !isLength(c)) });
  const bounds = { minLength: schema.minLength ?? undefined, maxLength: schema.maxLength ?? undefined };
  return rest
    .superRefine((value, ctx) => {
      // A string of n units holds n/2 to n characters: most values are decided without counting.
      let counted: number | undefined;
      const count = () => (counted ??= characters(value));
      for (const check of lengths) {
        const bound = check.value;
        const exact = check.kind === 'length';
        if (check.kind !== 'min' && value.length > bound && (value.length > 2 * bound || count() > bound))
          ctx.addIssue({
            code: 'too_big',
            type: 'string',
            maximum: bound,
            inclusive: true,
            exact,
            message: check.message,
          });
        if (check.kind !== 'max' && (value.length < bound || (value.length < 2 * bound && count() < bound)))
          ctx.addIssue({
            code: 'too_small',
            type: 'string',
            minimum: bound,
            inclusive: true,
            exact,
            message: check.message,
          });
      }
    })
    .openapi(Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined)));
}

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

/** Epoch ms of an ISO 8601 date-time with an explicit offset (a bare local time would depend on the server's zone); NaN otherwise. */
function parseDateTime(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) return NaN;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (day.getUTCMonth() !== Number(m[2]) - 1 || day.getUTCDate() !== Number(m[3])) return NaN; // 2024-02-30 and the like
  return Date.parse(value);
}

/** An ISO 8601 date-time with offset, answered in UTC (as Date.toISOString writes it). */
export const dateTimeInput = (description: string) =>
  instant(description)
    .refine(
      (s) => !Number.isNaN(parseDateTime(s)),
      'must be an ISO 8601 date-time with offset, e.g. 2026-06-01T00:00:00+07:00',
    )
    .transform((s) => new Date(parseDateTime(s)).toISOString());

/** Text trimmed, then `min` to `max` characters (code points). */
export const text = (min: number, max: number) => {
  const rule = `must be a string of ${min} to ${max} characters`;
  return inCharacters(z.string().trim().min(min, rule).max(max, rule));
};

export const integer = (min: number) => {
  const rule = `must be an integer >= ${min}`;
  return z.number().int(rule).safe(rule).min(min, rule);
};

/** Type errors keep zod's own message ("Expected string, received number"), as for every field. */
export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z.enum(values, {
    errorMap: (issue, ctx) => ({
      message: issue.code === 'invalid_enum_value' ? `must be one of ${values.join(', ')}` : ctx.defaultError,
    }),
  });

export const matching = (pattern: RegExp, rule: string) => z.string().regex(pattern, `must be ${rule}`);

/** An absolute URL; `web`: http(s) only (assets the app loads), otherwise any scheme (deep links). */
export const absoluteUrl = (web: boolean) => {
  const rule = `must be an absolute ${web ? 'http(s) ' : ''}URL`;
  return z.string().refine((value) => {
    if (value.length > 2048 && characters(value) > 2048) return false;
    try {
      const { protocol } = new URL(value);
      return !web || protocol === 'https:' || protocol === 'http:';
    } catch {
      return false;
    }
  }, rule);
};
