/**
 * The identity context's secret values (docs/identity.md, "Secrets at rest"): authorization codes, refresh tokens and
 * mini-app client secrets are 256-bit random strings, shown once and stored as their sha256 (a slow hash adds nothing
 * to a value with that much entropy); a presented secret is compared as a digest, in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** sha256 of `value`, in hex: how a code, a refresh token or a client secret is stored and looked up. */
export const secretHash = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** 32 random bytes, base64url (43 characters). */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** Whether `presented` hashes to `storedHash`, compared in constant time. */
export function matchesHash(presented: string, storedHash: string): boolean {
  const a = Buffer.from(secretHash(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
