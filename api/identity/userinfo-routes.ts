/**
 * The user-info interface's route (/open/identity/v1), declared once: userinfo-router.ts mounts it and openapi.ts
 * documents it. Fields and codes: docs/identity.md, "User info".
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { genders } from '../../application/identity/index.js';
import { errorResponses, requestIdHeader, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { userInfoCodes as c } from './userinfo-errors.js';

export const userInfoTag = 'Identity: user info';

export const userInfoData = z
  .object({
    user_id: z.string(),
    name: z.string(),
    date_of_birth: z.string().nullable().openapi({ format: 'date', description: 'YYYY-MM-DD; null when not known' }),
    gender: z.enum(genders).nullable(),
    avatar_url: z.string().nullable(),
    phone_number: z
      .string()
      .nullable()
      .optional()
      .describe('present only when the token carries `phone` and the user still consents to it'),
    email: z
      .string()
      .nullable()
      .optional()
      .describe('present only when the token carries `email` and the user still consents to it'),
  })
  .openapi('UserInfo');

const failure = (codes: [string, ...string[]]) =>
  z.object({
    code: z
      .number()
      .int()
      .describe(`one of ${codes.join(', ')}`),
    message: z.string(),
    data: z.null(),
  });

const cases: ErrorCase[] = [
  [401, String(c.tokenMissing), 'no `Authorization: Bearer <token>` header'],
  [401, String(c.tokenInvalid), 'the token is not one this service signed, or is malformed'],
  [401, String(c.tokenExpired), 'the token has expired'],
  [401, String(c.tokenRevoked), 'the token (its grant) has been revoked'],
  [403, String(c.scopeMissing), 'the token does not carry `profile` (an `auth`-only token cannot read user info)'],
  [403, String(c.consentWithdrawn), 'the user withdrew consent to `profile` for this mini-app'],
  [404, String(c.userNotFound), 'the user no longer exists'],
  [500, String(c.internal), 'an unexpected failure'],
];

export const userInfoRoutes = {
  userinfo: {
    method: 'get',
    path: '/userinfo',
    tags: [userInfoTag],
    operationId: 'getUserInfo',
    summary: "The user's profile, as the access token's scopes and the user's consent allow",
    description:
      'Needs scope `profile`; `phone_number` only with `phone`, `email` only with `email`, each only while the user still consents to that scope for the mini-app. Reads the user directly (not a projection).',
    security: [{ clientId: [], clientSecret: [], userBearer: [] }],
    responses: {
      200: {
        description: 'The user',
        headers: requestIdHeader,
        content: {
          'application/json': {
            schema: z.object({ code: z.literal(0), message: z.literal('Success'), data: userInfoData }),
          },
        },
      },
      ...errorResponses(cases, (_status, codes) => failure(codes)),
    },
  },
} satisfies Record<string, RouteSpec>;

export function registerUserInfoSecurity(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'userBearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "an access token from POST /oauth2/token/exchange (kept on the mini-app's backend)",
  });
}
