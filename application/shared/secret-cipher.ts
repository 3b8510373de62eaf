/**
 * Secrets the service must read back (a merchant's signing secretKey, to verify its HMACs): encrypted at rest under a
 * keyring (infrastructure/shared/secret-cipher.ts; docs/conventions.md, "Secrets and signatures"). Each text is bound
 * to what it belongs to (`binding`, GCM additional data): copied onto another record it does not open.
 */
export interface SecretCipher {
  encrypt(plain: string, binding: string): string;
  /** Throws on a tampered text, a foreign binding or a key no longer in the ring. */
  decrypt(encrypted: string, binding: string): string;
}
