/**
 * The identity context's operator routes (/operator/v1/identity/...): users and their consent, mini-apps and their
 * secrets, and the sandbox's auth codes, declared once: operator-router.ts mounts them and openapi.ts documents them.
 * Fields and codes: docs/identity.md, "Operator endpoints".
 */
import { z } from 'zod';
import { successResponse, type ErrorCase } from '../shared/openapi.js';
import {
  badOperatorParam,
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorJsonBody,
  operatorNotFound,
  operatorRoute,
  operatorSuccess,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import {
  authCodeBody,
  authCodeSchema,
  changeUserBody,
  consentBody,
  createMiniAppBody,
  createUserBody,
  identityId,
  identityUserSchema,
  miniAppSchema,
  miniAppWithSecretSchema,
} from './operator-schemas.js';

export const identityUsersTag = 'Operator: identity users';
export const miniAppsTag = 'Operator: mini-apps';

const userIdParam = z.object({ userId: identityId('the user id') });
const miniAppIdParam = z.object({ miniAppId: identityId('the mini-app id') });
const badId = (name: string) => badOperatorParam(`\`${name}\` is not a valid id`);
const keyReused: ErrorCase = [409, 'OPS-CONFLICT', 'a different request under this X-Idempotency-Key'];

export const identityOperatorRoutes = {
  createUser: operatorRoute(identityUsersTag, {
    method: 'post',
    path: '/identity/users',
    operationId: 'createIdentityUser',
    summary: 'Register a host-app user (the directory the login flow and the payment hub read)',
    request: operatorJsonBody(createUserBody),
    responses: {
      201: successResponse('Registered', operatorSuccess(identityUserSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        [409, 'OPS-CONFLICT', 'the user id is taken'],
        keyReused,
      ),
    },
  }),
  getUser: operatorRoute(identityUsersTag, {
    method: 'get',
    path: '/identity/users/{userId}',
    operationId: 'getIdentityUser',
    summary: 'A user with its consents, as its stream says',
    request: { params: userIdParam },
    responses: {
      200: successResponse('The user', operatorSuccess(identityUserSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badId('userId'), operatorNotFound('user')),
    },
  }),
  changeUser: operatorRoute(identityUsersTag, {
    method: 'patch',
    path: '/identity/users/{userId}',
    operationId: 'changeIdentityUser',
    summary: "Change a user's profile: the fields given change, null clears one",
    request: { params: userIdParam, ...operatorJsonBody(changeUserBody) },
    responses: {
      200: successResponse('Changed', operatorSuccess(identityUserSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badId('userId'),
        operatorNotFound('user'),
        keyReused,
      ),
    },
  }),
  setConsent: operatorRoute(identityUsersTag, {
    method: 'put',
    path: '/identity/users/{userId}/consents/{miniAppId}',
    operationId: 'setIdentityConsent',
    summary: "Set the user's consent for a mini-app: the scopes listed are granted, the others withdrawn",
    description:
      'What the host app records when the user answers its consent screen (the sandbox consent page does the same). Withdrawing a scope takes effect at once: user info stops answering the field even for tokens already issued.',
    request: { params: userIdParam.merge(miniAppIdParam), ...operatorJsonBody(consentBody) },
    responses: {
      200: successResponse('The user with its consents', operatorSuccess(identityUserSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badId('userId'),
        badId('miniAppId'),
        operatorNotFound('user or mini-app'),
        keyReused,
      ),
    },
  }),
  createMiniApp: operatorRoute(miniAppsTag, {
    method: 'post',
    path: '/identity/mini-apps',
    operationId: 'createMiniApp',
    summary: 'Register a mini-app; its client secret is generated and shown in this answer only',
    request: operatorJsonBody(createMiniAppBody),
    responses: {
      201: successResponse('Registered, with its secret', operatorSuccess(miniAppWithSecretSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        [409, 'OPS-CONFLICT', 'the mini-app id is taken'],
        keyReused,
      ),
    },
  }),
  getMiniApp: operatorRoute(miniAppsTag, {
    method: 'get',
    path: '/identity/mini-apps/{miniAppId}',
    operationId: 'getMiniApp',
    summary: 'A mini-app (never its secret)',
    request: { params: miniAppIdParam },
    responses: {
      200: successResponse('The mini-app', operatorSuccess(miniAppSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badId('miniAppId'), operatorNotFound('mini-app')),
    },
  }),
  rotateMiniAppSecret: operatorRoute(miniAppsTag, {
    method: 'post',
    path: '/identity/mini-apps/{miniAppId}/secret',
    operationId: 'rotateMiniAppSecret',
    summary: 'Replace the mini-app secret: the new one is shown once, the old one stops working at once',
    request: { params: miniAppIdParam },
    responses: {
      200: successResponse('The mini-app with its new secret', operatorSuccess(miniAppWithSecretSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, badId('miniAppId'), operatorNotFound('mini-app'), keyReused),
    },
  }),
  issueAuthCode: operatorRoute(identityUsersTag, {
    method: 'post',
    path: '/identity/auth-codes',
    operationId: 'issueAuthCode',
    summary: "Sandbox: issue a one-time authorization code, as the host app's getAuthCode would",
    description:
      '`auth` needs no consent (a silent login); `profile`, `phone` and `email` only as far as the user consented to them for the mini-app (PUT .../consents/{miniAppId} or the consent page). Off when IDENTITY_SANDBOX is false (the default in production): 404.',
    request: operatorJsonBody(authCodeBody),
    responses: {
      201: successResponse('The code', operatorSuccess(authCodeSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        operatorNotFound('user or mini-app, or the sandbox is off'),
        [409, 'OPS-CONFLICT', 'a consent scope the user has not granted to the mini-app'],
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
