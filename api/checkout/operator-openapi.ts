/**
 * The checkout's operator endpoints (operator-router.ts) in the OpenAPI document, from the zod schemas the router
 * parses with; tests/api/openapi-routes.test.ts fails when the two differ. docs/checkout.md.
 */
import { z } from 'zod';
import { jsonContent, successResponse, type OpenApiRegistrar } from '../shared/openapi.js';
import { operatorBasePath } from '../shared/operator-api.js';
import {
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorSuccess,
} from '../shared/operator-openapi.js';
import { createPromotionMasterBody, promotionMasterSchema } from './operator-schemas.js';

export function registerCheckoutOperatorOpenApi({ registry, tag }: OpenApiRegistrar): void {
  const tags = ['Operator: promotion masters'];
  tag(tags[0]!, 'Promotion masters of the promotion checkout: the definitions issued promotions follow');
  const security = [{ operatorToken: [] }];

  registry.registerPath({
    tags,
    security,
    method: 'post',
    path: `${operatorBasePath}/promotion-masters`,
    operationId: 'createPromotionMaster',
    summary: 'Create a promotion master (status ACTIVE)',
    description:
      'Text is trimmed and times are stored in UTC. With `X-Idempotency-Key` (unique per operator), an identical resend answers the first creation and a different body under the key is refused (409). The operator of the token is recorded as the actor of the event it appends.',
    request: { body: { required: true, content: jsonContent(createPromotionMasterBody) } },
    responses: {
      201: successResponse('Created', operatorSuccess(promotionMasterSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, ...operatorBodyErrors, [
        409,
        'OPS-CONFLICT',
        'a different request under this X-Idempotency-Key',
      ]),
    },
  });
  registry.registerPath({
    tags,
    security,
    method: 'get',
    path: `${operatorBasePath}/promotion-masters/{promotionMasterId}`,
    operationId: 'getPromotionMaster',
    summary: 'A promotion master, as its stream says (strongly consistent)',
    request: { params: z.object({ promotionMasterId: z.number().int().min(1) }) },
    responses: {
      200: successResponse('The promotion master', operatorSuccess(promotionMasterSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        [400, 'OPS-REQ-001', '`promotionMasterId` is not a positive integer'],
        [404, 'OPS-NOT-FOUND', 'no such promotion master'],
      ),
    },
  });
}
