/**
 * The checkout's operator routes (/operator/v1): promotion masters, declared once: operator-router.ts mounts them
 * and operator-openapi.ts documents them (api/shared/route-spec.ts). Fields and codes: docs/checkout.md.
 */
import { z } from 'zod';
import { successResponse } from '../shared/openapi.js';
import {
  badPositiveIdParam,
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorJsonBody,
  operatorNotFound,
  operatorRoute,
  operatorSuccess,
  positiveIdParam,
} from '../shared/operator-openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { createPromotionMasterBody, promotionMasterSchema, promotionMasterStatusBody } from './operator-schemas.js';
import { cancelBody, issuePromotionsBody, issuedListSchema, issuedPromotionSchema } from './operator-wallet-schemas.js';

export const promotionMastersTag = 'Operator: promotion masters';
export const issuedPromotionsTag = 'Operator: issued promotions';

export const checkoutOperatorRoutes = {
  createPromotionMaster: operatorRoute(promotionMastersTag, {
    method: 'post',
    path: '/promotion-masters',
    operationId: 'createPromotionMaster',
    summary: 'Create a promotion master (status ACTIVE)',
    description:
      'Text is trimmed and times are stored in UTC. With `X-Idempotency-Key` (unique per operator), an identical resend answers the first creation and a different body under the key is refused (409). The operator of the token is recorded as the actor of the event it appends.',
    request: operatorJsonBody(createPromotionMasterBody),
    responses: {
      201: successResponse('Created', operatorSuccess(promotionMasterSchema)),
      ...operatorErrorResponses(...operatorBaseErrors, ...operatorBodyErrors, [
        409,
        'OPS-CONFLICT',
        'a different request under this X-Idempotency-Key',
      ]),
    },
  }),
  getPromotionMaster: operatorRoute(promotionMastersTag, {
    method: 'get',
    path: '/promotion-masters/{promotionMasterId}',
    operationId: 'getPromotionMaster',
    summary: 'A promotion master, as its stream says (strongly consistent)',
    request: { params: z.object({ promotionMasterId: positiveIdParam }) },
    responses: {
      200: successResponse('The promotion master', operatorSuccess(promotionMasterSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badPositiveIdParam('promotionMasterId'),
        operatorNotFound('promotion master'),
      ),
    },
  }),
  changePromotionMasterStatus: operatorRoute(promotionMastersTag, {
    method: 'post',
    path: '/promotion-masters/{promotionMasterId}/status',
    operationId: 'changePromotionMasterStatus',
    summary: 'Pause, resume or end a promotion master (ENDED is final)',
    description:
      "A PAUSED or ENDED master's promotions are listed by applicable as not eligible (NOT_ACTIVE) and refused by reserve (8001); an ended one issues nothing more.",
    request: {
      params: z.object({ promotionMasterId: positiveIdParam }),
      ...operatorJsonBody(promotionMasterStatusBody),
    },
    responses: {
      200: successResponse('The promotion master', operatorSuccess(promotionMasterSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badPositiveIdParam('promotionMasterId'),
        operatorNotFound('promotion master'),
      ),
    },
  }),
  issuePromotions: operatorRoute(issuedPromotionsTag, {
    method: 'post',
    path: '/promotion-masters/{promotionMasterId}/issued-promotions',
    operationId: 'issuePromotions',
    summary: "Issue the master's promotions into users' wallets (codes generated, or imported)",
    description:
      'The master must be ACTIVE and not ended. The answer shows each code (they go to the users). With `X-Idempotency-Key`, a resend answers the first issue (same ids and codes) and issues nothing twice.',
    request: {
      params: z.object({ promotionMasterId: positiveIdParam }),
      ...operatorJsonBody(issuePromotionsBody),
    },
    responses: {
      201: successResponse('Issued', operatorSuccess(issuedListSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badPositiveIdParam('promotionMasterId'),
        operatorNotFound('promotion master'),
        [409, 'OPS-CONFLICT', 'a different request under this X-Idempotency-Key'],
      ),
    },
  }),
  getIssuedPromotion: operatorRoute(issuedPromotionsTag, {
    method: 'get',
    path: '/issued-promotions/{promotionId}',
    operationId: 'getIssuedPromotion',
    summary: 'An issued promotion, as its stream says (strongly consistent)',
    request: { params: z.object({ promotionId: positiveIdParam }) },
    responses: {
      200: successResponse('The issued promotion', operatorSuccess(issuedPromotionSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        badPositiveIdParam('promotionId'),
        operatorNotFound('issued promotion'),
      ),
    },
  }),
  cancelIssuedPromotion: operatorRoute(issuedPromotionsTag, {
    method: 'post',
    path: '/issued-promotions/{promotionId}/cancel',
    operationId: 'cancelIssuedPromotion',
    summary: 'Cancel an unused promotion (CANCELLED); a repeat answers the same',
    request: { params: z.object({ promotionId: positiveIdParam }), ...operatorJsonBody(cancelBody) },
    responses: {
      200: successResponse('Cancelled', operatorSuccess(issuedPromotionSchema)),
      ...operatorErrorResponses(
        ...operatorBaseErrors,
        ...operatorBodyErrors,
        badPositiveIdParam('promotionId'),
        operatorNotFound('issued promotion'),
        [409, 'OPS-CONFLICT', 'held by a checkout (release it first), used or expired'],
      ),
    },
  }),
} satisfies Record<string, RouteSpec>;
