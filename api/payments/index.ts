/**
 * The payment hub's API: its interface under /api/payments/v1 (behind the gateway), its onboarding endpoints in the
 * operator API and their OpenAPI. The only file of api/payments the composition root imports (docs/conventions.md,
 * "Modules").
 */
import type { PaymentsServices } from '../../application/payments/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { paymentsGatewayFront } from './hub-errors.js';
import { hubRouter } from './hub-router.js';
import { paymentsBasePath } from './hub-routes.js';
import { registerPaymentsOpenApi, registerPaymentsOperatorOpenApi } from './openapi.js';
import { paymentsOperatorRouter } from './operator-router.js';

export { paymentsGatewayFront } from './hub-errors.js';
export { hubRouter } from './hub-router.js';
export { paymentsBasePath } from './hub-routes.js';

export const paymentsApi: ContextApi<PaymentsServices> = {
  interfaces: (services, { logger }) => [
    { path: paymentsBasePath, gateway: paymentsGatewayFront, router: hubRouter({ services, logger }) },
  ],
  operatorRouter: (services, { logger }) => paymentsOperatorRouter({ services, logger }),
  openApi: [registerPaymentsOpenApi, registerPaymentsOperatorOpenApi],
  description:
    'The payment hub (`/api/payments/v1`): transactions of merchant backends, signed with HMAC-SHA-256 (docs/payments-signing.md); success `{code: 0, message, data}`, failure `{code, message}` with integer codes. Its onboarding is in the operator API (`/operator/v1/payment-merchants`). Details: docs/payments.md.',
};
