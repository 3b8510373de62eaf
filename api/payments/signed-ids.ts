/**
 * The ids a merchant backend signs (orderId, referenceId, branchId, refundReferenceId, ...) as zod schemas: any
 * printable Unicode text, Vietnamese included, counted in characters (code points), signed over its UTF-8 bytes
 * exactly as sent (docs/payments-signing.md, "Ids"). An empty string in an optional one counts as absent, also for
 * signing.
 */
import { z } from 'zod';
import { characters } from '../../application/shared/characters.js';

/**
 * What no id may hold: a control character (C0 with TAB, LF and CR, DEL, C1), a line or paragraph separator, a
 * surrogate that is not half of a pair (it has no UTF-8 bytes to sign), and `|`, which joins the signing string.
 */
const unprintable = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}|]/u;
/** Whitespace at either end: an id is compared and signed as sent, so `ĐH-1 ` would silently be another order. */
const edgeSpace = /^\s|\s$/u;

/** 1 to `max` characters of printable text without `|`; spaces inside, none at either end. */
export const signedId = (max = 64) => {
  const message = `must be 1 to ${max} characters of printable text without | or spaces at either end`;
  return z
    .string()
    .refine((s) => s.length > 0 && characters(s) <= max && !unprintable.test(s) && !edgeSpace.test(s), message);
};

/** Optional: absent, `null` or `""` is absent (also for signing); anything else must pass `schema`. */
export const optSigned = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.nullish()).transform((v) => v ?? undefined);
