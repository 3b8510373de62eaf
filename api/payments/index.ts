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
import { providerCallbackRouter } from './provider-callback-router.js';
import { providerCallbacksBasePath, sandboxPagesBasePath } from './provider-routes.js';
import { sandboxRouter } from './sandbox-router.js';

export { paymentsGatewayFront } from './hub-errors.js';
export { hubRouter } from './hub-router.js';
export { paymentsBasePath } from './hub-routes.js';

export const paymentsApi: ContextApi<PaymentsServices> = {
  interfaces: (services, { logger }) => [
    { path: paymentsBasePath, gateway: paymentsGatewayFront, router: hubRouter({ services, logger }) },
    // Providers are no gateway parties: their callbacks are authenticated by the provider's signature instead.
    { path: providerCallbacksBasePath, gateway: null, router: providerCallbackRouter({ services, logger }) },
    // A page the payer's browser opens (it cannot send gateway credentials); its address carries a signed token.
    // Mounted only where the sandbox runs (never in production unless SANDBOXES_ALLOWED names it).
    ...(services.sandbox
      ? [
          {
            path: sandboxPagesBasePath,
            gateway: null,
            router: sandboxRouter({ services, sandbox: services.sandbox, logger }),
          },
        ]
      : []),
  ],
  operatorRouter: (services, { logger }) => paymentsOperatorRouter({ services, logger }),
  openApi: [registerPaymentsOpenApi, registerPaymentsOperatorOpenApi],
  description:
    'The payment hub (`/api/payments/v1`): transactions of merchant backends, signed with HMAC-SHA-256 (docs/payments-signing.md); success `{code: 0, message, data}`, failure `{code, message}` with integer codes. Its onboarding is in the operator API (`/operator/v1/payment-merchants`). Details: docs/payments.md.',
};
