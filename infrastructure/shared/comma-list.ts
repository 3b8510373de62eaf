/**
 * A setting that holds a list, comma separated (README, "Configuration"): entries trimmed, empty ones dropped, each
 * checked by `item`, so `A, B,` is `['A', 'B']` and a bad entry is refused naming the setting.
 */
import { z } from 'zod';

export const commaList = <T extends z.ZodTypeAny>(item: T) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));
