/**
 * Signatures and secret values every interface with partner credentials uses (docs/conventions.md, "Secrets and
 * signatures"): HMAC-SHA-256 in lowercase hex, compared in constant time; high-entropy secrets stored as their
 * sha256 and compared as digests.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA-256 of `message` (UTF-8) under `key`, lowercase hex. */
export const hmacSha256Hex = (key: string | Buffer, message: string): string =>
  createHmac('sha256', key).update(message, 'utf8').digest('hex');

/**
 * Whether a presented hex signature equals the expected one, in time that does not depend on where they differ.
 * Case-insensitive (hex); anything that is not hex of the same length is simply unequal.
 */
export function signatureMatches(presented: string, expected: string): boolean {
  if (!/^[0-9a-fA-F]*$/.test(presented) || presented.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(presented.toLowerCase(), 'utf8'), Buffer.from(expected.toLowerCase(), 'utf8'));
}

/** sha256 of a secret value, hex: how a generated key or secret is stored and looked up. */
export const secretDigest = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Whether `presented` hashes to `storedDigest`, compared in constant time. */
export function secretMatchesDigest(presented: string, storedDigest: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = Buffer.from(storedDigest, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `length` characters drawn uniformly from `alphabet` (default: letters and digits) with the system's CSPRNG. */
export function randomToken(
  length = 32,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
): string {
  // Rejection sampling: every character equally likely, whatever the alphabet's size.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}
