/**
 * The sandbox consent page's routes (/sandbox/identity), declared once: sandbox-router.ts mounts them and openapi.ts
 * documents them. It stands in for the host app's consent screen: docs/identity.md, "The consent page".
 */
import { z } from 'zod';
import type { RouteSpec } from '../shared/route-spec.js';

export const sandboxBasePath = '/sandbox/identity';
export const sandboxTag = 'Identity: sandbox consent page';

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const errors = {
  400: html('An id, scope or redirect_uri that is malformed, or a redirect_uri the mini-app did not register'),
  403: html('The form came without the CSRF token of its cookie'),
  404: html('No such user or mini-app, or the sandbox is off (IDENTITY_SANDBOX=false, the default in production)'),
};

export const sandboxRoutes = {
  consentForm: {
    method: 'get',
    path: '/consent',
    tags: [sandboxTag],
    operationId: 'showConsentPage',
    summary: "The host app's consent screen, for a user and a mini-app: a checkbox per scope asked for",
    description:
      'Public (a browser page, outside the gateway) and on only in the sandbox: whoever reaches it can log in as any user. Scopes already consented to are ticked.',
    security: [],
    request: {
      query: z.object({
        miniapp_id: z.string(),
        user_id: z.string(),
        scope: z.string().optional().describe('space-separated; default `profile phone email`; `auth` may be added'),
        redirect_uri: z.string().optional().describe('one the mini-app registered: the code is sent there'),
        state: z.string().optional().describe('given back with the code on the redirect'),
      }),
    },
    responses: { 200: html('The form (sets the CSRF cookie)'), ...errors },
  },
  consentSubmit: {
    method: 'post',
    path: '/consent',
    tags: [sandboxTag],
    operationId: 'submitConsentPage',
    summary: 'Records the consent (ticked scopes granted, unticked ones withdrawn) and issues a one-time code',
    description:
      'Answers a page showing the code, or redirects (303) to the redirect_uri with `code` and `state`. `decision=deny` (or nothing ticked) issues no code and redirects with `error=access_denied`.',
    security: [],
    request: {
      body: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: z.object({
              csrf: z.string(),
              user_id: z.string(),
              miniapp_id: z.string(),
              scope: z.string(),
              grant: z.array(z.string()).optional(),
              decision: z.enum(['allow', 'deny']),
              redirect_uri: z.string().optional(),
              state: z.string().optional(),
            }),
          },
        },
      },
    },
    responses: {
      200: html('The code, on the page (element #auth-code)'),
      303: { description: 'To redirect_uri with code and state (or error=access_denied)' },
      ...errors,
    },
  },
} satisfies Record<string, RouteSpec>;
