/**
 * The gateway's operator routes (/operator/v1/gateway/...), declared once: operator-router.ts mounts them and
 * operator-openapi.ts documents them (api/shared/route-spec.ts). Fields, rules and codes: docs/gateway.md.
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
  type OperatorRouteConfig,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { createPartyBody, gatewaySchemas, issueCredentialBody, updatePartyBody } from './operator-schemas.js';

export const gatewayPartiesTag = 'Operator: gateway parties';

const actor = ' The operator of the token is recorded as the actor of the events it appends.';
const withBody = [...operatorBaseErrors, ...operatorBodyErrors];
const badPartyId = badOperatorParam('`partyId` is not a party id');
const badClientId = badOperatorParam('`clientId` is not a client id');
const idempotencyConflict: ErrorCase = [409, 'OPS-CONFLICT', 'a different request under this X-Idempotency-Key'];

const partyParams = z.object({ partyId: z.string().describe('the party id') });
const route = (spec: OperatorRouteConfig) => operatorRoute(gatewayPartiesTag, spec);

export const gatewayOperatorRoutes = {
  createParty: route({
    method: 'post',
    path: '/gateway/parties',
    operationId: 'createGatewayParty',
    summary: 'Register a party of the gateway: its interfaces, IP allowlist and rate limits',
    description: `An EXTERNAL party must list the addresses it calls from. A rate limit names an endpoint of the interface as \`METHOD /path\` (its path in this document, relative to the interface's base), or \`*\` for every endpoint of it. Credentials are issued apart.${actor}`,
    request: operatorJsonBody(createPartyBody),
    responses: {
      201: successResponse('Registered', operatorSuccess(gatewaySchemas.party)),
      ...operatorErrorResponses(...withBody, [409, 'OPS-CONFLICT', 'a party with this id exists'], idempotencyConflict),
    },
  }),
  getParty: route({
    method: 'get',
    path: '/gateway/parties/{partyId}',
    operationId: 'getGatewayParty',
    summary: 'A party and its credentials (never a secret), as its stream says',
    request: { params: partyParams },
    responses: {
      200: successResponse('The party', operatorSuccess(gatewaySchemas.party)),
      ...operatorErrorResponses(...operatorBaseErrors, badPartyId, operatorNotFound('party')),
    },
  }),
  updateParty: route({
    method: 'patch',
    path: '/gateway/parties/{partyId}',
    operationId: 'updateGatewayParty',
    summary: 'Change a party’s name, interfaces, IP allowlist or rate limits',
    description: `Each field given replaces the party's whole list; absent fields stay. The kind cannot change. This process applies the change at once, other API processes within GATEWAY_LOOKUP_CACHE_MS.${actor}`,
    request: { params: partyParams, ...operatorJsonBody(updatePartyBody) },
    responses: {
      200: successResponse('The party, changed', operatorSuccess(gatewaySchemas.party)),
      ...operatorErrorResponses(...withBody, badPartyId, operatorNotFound('party'), idempotencyConflict),
    },
  }),
  issueCredential: route({
    method: 'post',
    path: '/gateway/parties/{partyId}/credentials',
    operationId: 'issueGatewayCredential',
    summary: 'Issue a client_id/client_secret pair (the secret is shown once)',
    description: `Generated, or imported from the real gateway's operator (\`clientId\` and a \`clientSecret\` of at least 32 characters). A prod pair is for prod alone, and a party holds at most two active prod pairs (the one in use and, while rotating, its successor); one dev/sit/uat pair may serve several of them. Client ids are unique across parties and never reused. A resend under the same X-Idempotency-Key is refused (409): the secret was shown once.${actor}`,
    request: { params: partyParams, ...operatorJsonBody(issueCredentialBody) },
    responses: {
      201: successResponse('Issued', operatorSuccess(gatewaySchemas.issued)),
      ...operatorErrorResponses(...withBody, badPartyId, operatorNotFound('party'), [
        409,
        'OPS-CONFLICT',
        'the client id is taken, or the request was carried out before (its secret was shown)',
      ]),
    },
  }),
  revokeCredential: route({
    method: 'post',
    path: '/gateway/parties/{partyId}/credentials/{clientId}/revoke',
    operationId: 'revokeGatewayCredential',
    summary: 'Revoke a credential',
    description: `Refused at once by this process, by other API processes within GATEWAY_LOOKUP_CACHE_MS. Revoking a revoked credential changes nothing.${actor}`,
    request: { params: partyParams.extend({ clientId: z.string().describe('the client id') }) },
    responses: {
      200: successResponse('The credential, revoked', operatorSuccess(gatewaySchemas.credential)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badPartyId,
        badClientId,
        operatorNotFound('party or credential'),
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
