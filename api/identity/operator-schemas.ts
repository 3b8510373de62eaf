/**
 * The identity operator bodies and answers as zod schemas, in the identity interfaces' snake_case. A body parsed by
 * its schema is the typed command (docs/conventions.md, "Commands are typed"); rules against the state stay with the
 * deciders. docs/identity.md, "Operator endpoints".
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  consentScopes,
  genders,
  identityIdPattern,
  scopes,
  type IssuedAuthCode,
  type MiniAppView,
  type UserProfile,
  type UserView,
} from '../../application/identity/index.js';
import { absoluteUrl, inCharacters, matching, oneOf, text } from '../shared/input-schemas.js';

extendZodWithOpenApi(z);

export const identityId = (what: string) =>
  matching(identityIdPattern, '1 to 64 letters, digits, "_", "." or "-", starting with a letter or digit').describe(
    what,
  );

/** A calendar date YYYY-MM-DD that exists (no 2001-02-30). */
const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= '1900-01-01';
  }, 'must be a real date YYYY-MM-DD from 1900 on')
  .openapi({ format: 'date' });

const profileFields = {
  name: text(1, 128).describe('1 to 128 characters, trimmed'),
  date_of_birth: calendarDate.nullable(),
  gender: oneOf(genders).nullable(),
  phone_number: matching(/^\d{10,11}$/, '10 or 11 digits').nullable(),
  email: inCharacters(z.string().trim().max(254).email('must be an e-mail address')).nullable(),
  avatar_url: absoluteUrl(true).nullable(),
};

/** POST /identity/users. */
export const createUserBody = z
  .object({
    user_id: identityId('the host-app user id'),
    name: profileFields.name,
    date_of_birth: profileFields.date_of_birth.optional(),
    gender: profileFields.gender.optional(),
    phone_number: profileFields.phone_number.optional(),
    email: profileFields.email.optional(),
    avatar_url: profileFields.avatar_url.optional(),
  })
  .strict()
  .transform((b): { userId: string; profile: UserProfile } => ({
    userId: b.user_id,
    profile: {
      name: b.name,
      dateOfBirth: b.date_of_birth ?? null,
      gender: b.gender ?? null,
      phoneNumber: b.phone_number ?? null,
      email: b.email ?? null,
      avatarUrl: b.avatar_url ?? null,
    },
  }))
  .openapi('CreateIdentityUserRequest');

/** PATCH /identity/users/{userId}: the fields given change; null clears one (not name). */
export const changeUserBody = z
  .object({
    name: profileFields.name.optional(),
    date_of_birth: profileFields.date_of_birth.optional(),
    gender: profileFields.gender.optional(),
    phone_number: profileFields.phone_number.optional(),
    email: profileFields.email.optional(),
    avatar_url: profileFields.avatar_url.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'must change at least one field')
  .transform((b): Partial<UserProfile> =>
    Object.fromEntries(
      Object.entries({
        name: b.name,
        dateOfBirth: b.date_of_birth,
        gender: b.gender,
        phoneNumber: b.phone_number,
        email: b.email,
        avatarUrl: b.avatar_url,
      }).filter(([, v]) => v !== undefined),
    ),
  )
  .openapi('ChangeIdentityUserRequest');

const uniqueList = <T extends string>(values: readonly [T, ...T[]], what: string) =>
  z
    .array(oneOf(values))
    .max(values.length)
    .refine((list) => new Set(list).size === list.length, 'must not repeat a scope')
    .describe(what);

/** PUT /identity/users/{userId}/consents/{miniAppId}: the consent scopes that stand from now on. */
export const consentBody = z
  .object({
    scopes: uniqueList(consentScopes, 'profile, phone, email: those listed are granted, the others withdrawn'),
  })
  .strict()
  .openapi('IdentityConsentRequest');

const redirectUri = absoluteUrl(false).refine((u) => !u.includes('#'), 'must not hold a fragment (#)');

/** POST /identity/mini-apps. */
export const createMiniAppBody = z
  .object({
    miniapp_id: identityId('the mini-app id: its client_id at the token endpoint'),
    name: text(1, 128),
    redirect_uris: z
      .array(redirectUri)
      .max(10)
      .default([])
      .describe('where the sandbox consent page may send the code (exact match); none: the page shows it'),
  })
  .strict()
  .transform((b) => ({ miniAppId: b.miniapp_id, name: b.name, redirectUris: b.redirect_uris }))
  .openapi('CreateMiniAppRequest');

/** POST /identity/auth-codes. */
export const authCodeBody = z
  .object({
    user_id: identityId('the user logging in'),
    miniapp_id: identityId('the mini-app the code is for'),
    scopes: uniqueList(scopes, '`auth` (no consent needed), `profile`, `phone`, `email` (each consented to)').refine(
      (l) => l.length > 0,
      'must name at least one scope',
    ),
  })
  .strict()
  .transform((b) => ({ userId: b.user_id, miniAppId: b.miniapp_id, scopes: b.scopes }))
  .openapi('IssueAuthCodeRequest');

const instant = (description: string) => z.string().openapi({ format: 'date-time', description });

export const identityUserSchema = z
  .object({
    user_id: z.string(),
    name: z.string(),
    date_of_birth: z.string().nullable(),
    gender: z.enum(genders).nullable(),
    phone_number: z.string().nullable(),
    email: z.string().nullable(),
    avatar_url: z.string().nullable(),
    consents: z.array(z.object({ miniapp_id: z.string(), scopes: z.array(z.enum(consentScopes)) })),
    registered_at: instant('UTC'),
    updated_at: instant('UTC'),
  })
  .openapi('IdentityUser');

export const userJson = (u: UserView): z.infer<typeof identityUserSchema> => ({
  user_id: u.userId,
  name: u.name,
  date_of_birth: u.dateOfBirth,
  gender: u.gender,
  phone_number: u.phoneNumber,
  email: u.email,
  avatar_url: u.avatarUrl,
  consents: u.consents.map((c) => ({ miniapp_id: c.miniAppId, scopes: c.scopes })),
  registered_at: u.registeredAt,
  updated_at: u.updatedAt,
});

export const miniAppSchema = z
  .object({
    miniapp_id: z.string(),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    registered_at: instant('UTC'),
    secret_rotated_at: instant('UTC; null until the first rotation').nullable(),
  })
  .openapi('MiniApp');

export const miniAppWithSecretSchema = miniAppSchema
  .extend({
    client_secret: z
      .string()
      .nullable()
      .describe('shown this once, stored only as its hash; null when the answer replays an earlier request'),
  })
  .openapi('MiniAppWithSecret');

export const miniAppJson = (m: MiniAppView): z.infer<typeof miniAppSchema> => ({
  miniapp_id: m.miniAppId,
  name: m.name,
  redirect_uris: m.redirectUris,
  registered_at: m.registeredAt,
  secret_rotated_at: m.secretRotatedAt,
});

export const authCodeSchema = z
  .object({
    code: z.string().describe('one-time; give it to the mini-app backend for POST /oauth2/token/exchange'),
    user_id: z.string(),
    miniapp_id: z.string(),
    scopes: z.array(z.enum(scopes)),
    expires_in: z.number().int().describe('seconds'),
    expires_at: instant('UTC'),
  })
  .openapi('AuthCode');

export const authCodeJson = (c: IssuedAuthCode): z.infer<typeof authCodeSchema> => ({
  code: c.code,
  user_id: c.userId,
  miniapp_id: c.miniAppId,
  scopes: c.scopes,
  expires_in: c.expiresIn,
  expires_at: c.expiresAt,
});
