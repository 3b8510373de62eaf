/**
 * The identity context's secrets (infrastructure/shared/secrets.ts; docs/identity.md, "Signing keys"):
 * IDENTITY_SIGNING_KEYS, a JSON array of private JWKs (Ed25519 for EdDSA, or P-256 for ES256), each with a unique
 * `kid`. The first signs new access tokens; all verify, so a key is rotated by putting a new one first and dropping
 * the old one once the longest access-token life has passed. Refused at start when a key is not a private key of
 * those kinds; development generates one Ed25519 key into dev-secrets.json.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Secret, SecretValues } from '../shared/secrets.js';

/** A private signing key: its id, its JWS algorithm and the private JWK (with the public part). */
export interface SigningKey {
  kid: string;
  alg: 'EdDSA' | 'ES256';
  jwk: Record<string, string>;
}

const jwkSchema = z
  .object({
    kid: z.string().regex(/^[\x21-\x7e]{1,64}$/, 'kid must be 1 to 64 printable characters'),
    kty: z.enum(['OKP', 'EC'], { message: 'kty must be OKP (Ed25519) or EC (P-256): other kinds are not accepted' }),
    crv: z.string(),
    d: z.string({ message: 'every key must be a private key (d)' }).min(1),
    x: z.string().min(1),
    y: z.string().optional(),
  })
  .passthrough()
  .superRefine((jwk, ctx) => {
    if (jwk.kty === 'OKP' && jwk.crv !== 'Ed25519')
      ctx.addIssue({ code: 'custom', message: 'an OKP key must be Ed25519' });
    if (jwk.kty === 'EC' && (jwk.crv !== 'P-256' || !jwk.y))
      ctx.addIssue({ code: 'custom', message: 'an EC key must be P-256 with x and y' });
  });

const signingKeysRule = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of private JWKs' });
      return z.NEVER;
    }
  })
  .pipe(z.array(jwkSchema).min(1, 'must hold at least one key').max(10, 'holds at most 10 keys'))
  .superRefine((keys, ctx) => {
    // A value that already failed (not JSON, not a list) reaches here too: zod goes on after a transform's issue.
    if (!Array.isArray(keys)) return;
    const kids = keys.map((k) => k.kid);
    if (new Set(kids).size !== kids.length) ctx.addIssue({ code: 'custom', message: 'two keys share a kid' });
    for (const key of keys) {
      try {
        // The private key must be one: its public half is derived and must match the x (and y) given.
        const publicJwk = createPrivateKey({ key: key as never, format: 'jwk' }).export({ format: 'jwk' });
        if (publicJwk.x !== key.x || (key.y !== undefined && publicJwk.y !== key.y)) throw new Error('mismatch');
      } catch {
        ctx.addIssue({ code: 'custom', message: `key ${key.kid} is not a valid private key` });
      }
    }
  })
  .transform((keys): SigningKey[] =>
    keys.map(({ kid, kty, crv, d, x, y }) => ({
      kid,
      alg: kty === 'OKP' ? 'EdDSA' : 'ES256',
      jwk: { kty, crv, d, x, ...(y !== undefined && { y }) },
    })),
  );

/** One fresh Ed25519 private JWK with a kid, as IDENTITY_SIGNING_KEYS holds it. */
export function newSigningKeyJwk(): Record<string, string> {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as Record<string, string>;
  return { kid: `ed-${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`, ...jwk };
}

export const identitySecrets = {
  IDENTITY_SIGNING_KEYS: {
    rule: signingKeysRule,
    dev: { key: 'identitySigningKeys', generate: () => JSON.stringify([newSigningKeyJwk()]) },
  } satisfies Secret<SigningKey[]>,
};

export type IdentitySecrets = SecretValues<typeof identitySecrets>;

/** Reads IDENTITY_SIGNING_KEYS as the service does (tests build keys with it). */
export const readSigningKeys = (json: string): SigningKey[] => signingKeysRule.parse(json);
