/**
 * The identity context's secret values (docs/identity.md, "Secrets at rest"): authorization codes, refresh tokens and
 * mini-app client secrets are 256-bit random strings, shown once and stored as their sha256 (a slow hash adds nothing
 * to a value with that much entropy); a presented secret is compared as a digest, in constant time.
 */
import { randomBytes } from 'node:crypto';
import { secretDigest, secretMatchesDigest } from '../shared/signatures.js';

/** sha256 of `value`, in hex: how a code, a refresh token or a client secret is stored and looked up. */
export const secretHash = secretDigest;

/** 32 random bytes, base64url (43 characters). */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** Whether `presented` hashes to `storedHash`, compared in constant time. */
export const matchesHash = secretMatchesDigest;
