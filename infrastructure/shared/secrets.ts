/**
 * Secrets, declared per context like the settings (docs/conventions.md, "Modules"): each context lists its own in
 * `infrastructure/<context>/secrets.ts`, the shared ones are here, and the composition root loads them all with
 * `loadSecrets`. In production every declared secret must be set; elsewhere a missing one is generated once and kept
 * in `<DATA_DIR>/dev-secrets.json` (kept-json-file.ts), so a developer's restarts keep the same credentials and can
 * still decrypt the voucher codes they issued.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { commaList } from './comma-list.js';
import { ConfigError, type Config } from './config.js';
import { readKeptJson, updateKeptJson } from './kept-json-file.js';

type DevSecrets = Record<string, string>;

/** One secret: the rule its environment variable must meet, and how development makes and keeps one. */
export interface Secret<T> {
  readonly rule: z.ZodType<T, z.ZodTypeDef, string>;
  readonly dev: {
    /** Its key in dev-secrets.json (never rename one: developers' files hold it). */
    readonly key: string;
    readonly generate: () => string;
    /** The value a kept string stands for (default: the string read by `rule`). */
    readonly read?: (kept: string) => T;
  };
  /** May be left unset, in production too: its value is then the rule's reading of '' (an empty keyring). */
  readonly optional?: boolean;
  /** In production: why a configured value is too weak to run with (undefined: strong enough). */
  readonly weak?: (value: T) => string | undefined;
}

/** Text that stands for a value someone forgot to set. */
const placeholder = /change[-_ ]?me|changeit|replace[-_ ]?me|placeholder|your[-_ ]?(secret|token|key)|example|<[^>]*>/i;

/** Why `text` is too weak for a secret of at least `minLength` characters, if it is. */
export function weakText(text: string, minLength: number): string | undefined {
  if (text.length < minLength) return `is shorter than ${minLength} characters`;
  if (placeholder.test(text)) return 'looks like a placeholder';
  if (new Set(text).size < 8) return 'has fewer than 8 distinct characters';
  return undefined;
}

/** Why a hex key is too weak, if it is: all zeros (or any one byte repeated), or hardly any distinct bytes. */
export function weakHexKey(hex: string): string | undefined {
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.every((b) => b === bytes[0])) return 'is one byte repeated (all zeros?)';
  if (new Set(bytes).size < bytes.length / 4) return 'has too few distinct bytes to be random';
  return undefined;
}

/** A 32-byte encryption key (64 hex characters), generated in development under `devKey`, refused when weak. */
export function hexKeySecret(devKey: string): Secret<string> {
  return {
    rule: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)'),
    dev: { key: devKey, generate: () => randomBytes(32).toString('hex') },
    weak: weakHexKey,
  };
}

/** Earlier keys of a keyring, comma separated (64 hex characters each): they still decrypt what they encrypted. */
export function oldHexKeysSecret(devKey: string): Secret<string[]> {
  return {
    rule: commaList(z.string().regex(/^[0-9a-fA-F]{64}$/, 'each key is 64 hex characters (32 bytes)')),
    dev: { key: devKey, generate: () => '' },
    optional: true,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a secret of any value
export type SecretsShape = Record<string, Secret<any>>;

/** The values of a shape's secrets, by variable name (as the settings are). */
export type SecretValues<S extends SecretsShape> = { [K in keyof S]: S[K] extends Secret<infer T> ? T : never };

/** A random secret of `bytes` bytes, base64url. */
export const randomToken =
  (bytes = 24) =>
  () =>
    randomBytes(bytes).toString('base64url');

const csvPairs = commaList(
  z.string().regex(/^[^=]+=.{16,}$/, 'each entry is name=token, token at least 16 characters'),
).transform((pairs) => pairs.map((p) => ({ name: p.slice(0, p.indexOf('=')), token: p.slice(p.indexOf('=') + 1) })));

/** The secrets of no one context: the composition root's. Documented in README.md ("Configuration"). */
export const sharedSecrets = {
  /** Operator API tokens: name=token,name=token. The name is recorded as the actor of each change. */
  OPERATOR_TOKENS: {
    rule: csvPairs,
    dev: { key: 'operatorToken', generate: randomToken(), read: (token) => [{ name: 'dev-operator', token }] },
    weak: (pairs) => {
      const names = pairs.map((p) => p.name);
      const duplicate = names.find((name, i) => names.indexOf(name) !== i);
      if (duplicate !== undefined) return `names ${duplicate} twice`;
      if (new Set(pairs.map((p) => p.token)).size !== pairs.length) return 'gives two operators the same token';
      for (const { name, token } of pairs) {
        const weakness = weakText(token, 32);
        if (weakness) return `the token of ${name} ${weakness}`;
      }
      return undefined;
    },
  } satisfies Secret<{ name: string; token: string }[]>,
};

export type SharedSecrets = SecretValues<typeof sharedSecrets>;

/** The rules of `shape` as optional settings, so that loadConfig names a wrong secret with the wrong settings. */
export const secretRules = (shape: SecretsShape) =>
  Object.fromEntries(Object.entries(shape).map(([name, s]) => [name, s.rule.optional()]));

/** The values of `shape`'s secrets from `env`; a missing one refused in production, else generated and kept. */
export function loadSecrets<S extends SecretsShape>(
  shape: S,
  config: Pick<Config, 'NODE_ENV' | 'DATA_DIR'>,
  env: NodeJS.ProcessEnv = process.env,
): SecretValues<S> {
  const parsed = z.object(secretRules(shape)).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const configured = parsed.data as Record<string, unknown>;
  const production = config.NODE_ENV === 'production';
  const unset = () => Object.keys(shape).filter((name) => configured[name] === undefined);
  const missing = unset().filter((name) => !shape[name]!.optional);
  if (missing.length && production)
    throw new ConfigError(`invalid configuration: ${missing.join(', ')} must be set in production`);
  if (production) for (const name of unset()) configured[name] = shape[name]!.rule.parse('');
  if (production) {
    // Named, never shown: a refusal must not print the secret it refuses.
    const weak = Object.entries(shape).flatMap(([name, s]) => {
      const weakness = s.weak?.(configured[name]);
      return weakness ? [`  ${name}: ${weakness}`] : [];
    });
    if (weak.length) throw new ConfigError(`weak secrets, refused in production:\n${weak.join('\n')}`);
  }

  let dev: DevSecrets = {};
  if (unset().length) {
    // Every declared secret gets its kept value (as before), and keys of others in the file are left as they are.
    // The file is written only when it lacks one, and then by whichever process starting at that moment takes its
    // lock first: the others find the secrets it generated (kept-json-file.ts).
    const file = path.resolve(config.DATA_DIR, 'dev-secrets.json');
    const declared = Object.values(shape).map((s) => s.dev);
    const lacking = (kept: DevSecrets) => declared.filter((d) => kept[d.key] == null);
    dev = readKeptJson<DevSecrets>(file);
    if (lacking(dev).length > 0)
      dev = updateKeptJson<DevSecrets>(file, (kept) => {
        const generated = lacking(kept);
        for (const d of generated) kept[d.key] = d.generate();
        return generated.length > 0;
      });
  }
  return Object.fromEntries(
    Object.entries(shape).map(([name, s]) => {
      if (configured[name] !== undefined) return [name, configured[name]];
      const kept = dev[s.dev.key]!;
      if (s.dev.read) return [name, s.dev.read(kept)];
      const read = s.rule.safeParse(kept);
      if (!read.success)
        throw new ConfigError(`invalid dev-secrets.json: ${s.dev.key}: ${read.error.issues[0]!.message}`);
      return [name, read.data];
    }),
  ) as SecretValues<S>;
}
