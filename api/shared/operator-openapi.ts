/**
 * The operator API's part of the OpenAPI document shared by every context's operator endpoints
 * (api/shared/operator-api.ts): its security scheme, its envelopes and the error cases every operator route has.
 * Each context documents its own routes with these, next to its operator router.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorResponses, type ErrorCase, type OpenApiRegistrar } from './openapi.js';

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

/** The error responses of an operator route, in the operator API's failure envelope. */
export const operatorErrorResponses = (...cases: ErrorCase[]) =>
  errorResponses(cases, (status, codes) => operatorFailure(codes[0], status === 400));

/** The operator token scheme every operator route names as its security. */
export function registerOperatorOpenApi({ registry }: OpenApiRegistrar): void {
  registry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'a token of OPERATOR_TOKENS (name=token,…); its name is recorded as the actor of every change',
  });
}
