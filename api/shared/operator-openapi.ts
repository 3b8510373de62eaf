/**
 * The operator API's part of the OpenAPI document shared by every context's operator endpoints
 * (api/shared/operator-api.ts): its security scheme, its envelopes, the error cases of its routes and the form of a
 * route spec. Each context declares its operator routes once with these (e.g. api/shop/operator-routes.ts), for its
 * operator router and its OpenAPI registration (api/shared/route-spec.ts).
 */
import { extendZodWithOpenApi, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorResponses, jsonContent, type ErrorCase, type OpenApiRegistrar } from './openapi.js';
import { operatorBasePath } from './operator-api.js';
import { registerRoutes, type RouteSpec } from './route-spec.js';

extendZodWithOpenApi(z);

/** The operator API's envelope around `data`. */
export const operatorSuccess = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ code: z.literal('SUCCESS'), message: z.literal('Success'), data });

/** The operator API's failure envelope; a 400 names the offending field in data.field when there is one. */
export const operatorFailure = (code: string, withField = false) =>
  z.object({
    code: z.literal(code),
    message: z.string(),
    data: withField
      ? z.object({ field: z.string().describe('e.g. pricing.faceValue, banners[0].channelCode') }).nullable()
      : z.null(),
  });

/** What any operator route can answer. */
export const operatorBaseErrors: ErrorCase[] = [
  [401, 'OPS-AUTH-001', 'missing or unknown operator token'],
  [500, 'OPS-SYS-500', 'an unexpected failure'],
];

/** What any operator route with a JSON body can answer besides. */
export const operatorBodyErrors: ErrorCase[] = [
  [
    400,
    'OPS-REQ-001',
    'invalid input (malformed JSON, a wrong type, or a rule of the resource broken); `data.field` names the field',
  ],
  [413, 'OPS-REQ-413', 'body too large'],
  [415, 'OPS-REQ-415', '`Content-Type` is not `application/json`, or the body is not UTF-8'],
];

/** A path parameter that is not what the route takes (operator-api.ts numericParam, or a context's own check). */
export const badOperatorParam = (what: string): ErrorCase => [400, 'OPS-REQ-001', what];

/** A positive integer path parameter (numericParam) that is not one. */
export const badPositiveIdParam = (name: string) => badOperatorParam(`\`${name}\` is not a positive integer`);

export const operatorNotFound = (what: string): ErrorCase => [404, 'OPS-NOT-FOUND', `no such ${what}`];

/** How a positive integer path parameter is documented (express takes any text there; numericParam checks it). */
export const positiveIdParam = z.number().int().min(1);

/** The request part of an operator route with a JSON body parsed by `schema` (operator-api.ts body). */
export const operatorJsonBody = (schema: z.ZodTypeAny) => ({ body: { required: true, content: jsonContent(schema) } });

/** The error responses of an operator route, in the operator API's failure envelope. */
export const operatorErrorResponses = (...cases: ErrorCase[]) =>
  errorResponses(cases, (status, codes) => operatorFailure(codes[0], status === 400));

/**
 * An operator route under `tag`, relative to operatorBasePath, authenticated by the operator token. Its path takes no
 * pathPatterns: a malformed id is the route's 400, not the next route's 404.
 */
export type OperatorRouteConfig = Omit<RouteSpec, 'tags' | 'security' | 'pathPatterns'>;

export const operatorRoute = (tag: string, spec: OperatorRouteConfig): RouteSpec => ({
  tags: [tag],
  security: [{ operatorToken: [] }],
  ...spec,
});

/** Documents operator routes as served under operatorBasePath (where operatorApi is mounted). */
export function registerOperatorRoutes(registry: OpenAPIRegistry, routes: Record<string, RouteSpec>): void {
  registerRoutes(registry, operatorBasePath, Object.values(routes));
}

/** The operator token scheme every operator route names as its security. */
export function registerOperatorOpenApi({ registry }: OpenApiRegistrar): void {
  registry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'a token of OPERATOR_TOKENS (name=token,…); its name is recorded as the actor of every change',
  });
}
