/**
 * Client secrets (docs/gateway.md, "Secrets"): generated here and shown once, or imported; stored as their sha256
 * and compared in constant time. A fast hash is enough because every secret is high-entropy (generated: 256 random
 * bits; imported: at least 32 characters of a pair the real gateway's operator generated): nobody can search such a
 * space, and a slow hash (bcrypt, scrypt) would cost milliseconds on every request behind the gateway.
 */
import { randomBytes } from 'node:crypto';
import { secretDigest, secretMatchesDigest } from '../shared/signatures.js';

/** An imported secret's bounds: shorter is too guessable; longer than any real gateway's. */
export const importedSecretLength = { min: 32, max: 256 } as const;

/** Header-safe: printable ASCII without spaces. */
export const clientSecretPattern = /^[\x21-\x7e]+$/;

export const secretHash = secretDigest;

/** 32 random bytes, base64url: 43 characters. */
export const generateClientSecret = (): string => randomBytes(32).toString('base64url');

/** A client id for `partyId` when the operator names none: the party's id and 8 random hex characters. */
export const generateClientId = (partyId: string): string =>
  `${partyId.slice(0, 48)}-${randomBytes(4).toString('hex')}`;

/** Whether `secret` hashes to `hash`, in time that does not depend on where they differ. */
export const secretMatches = secretMatchesDigest;
