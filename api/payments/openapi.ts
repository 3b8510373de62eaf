/** The payment hub in the OpenAPI document: its key scheme, its routes (hub-routes.ts) and its onboarding routes. */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { registerRoutes } from '../shared/route-spec.js';
import { hubRoutes, hubTag, paymentsBasePath } from './hub-routes.js';
import { sessionRoutes } from './session-routes.js';
import { paymentIpnRoutes, paymentIpnTag } from './ipn-operator-routes.js';
import { paymentMerchantsTag, paymentsOperatorRoutes } from './operator-routes.js';
import { refundHubRoutes } from './refund-routes.js';
import {
  providerCallbackRoutes,
  providerCallbacksBasePath,
  providerRefundCallbackRoutes,
  providersTag,
  sandboxPageRoutes,
  sandboxPagesBasePath,
} from './provider-routes.js';

export function registerPaymentsOpenApi({ registry, tag }: OpenApiRegistrar): void {
  registry.registerComponent('securitySchemes', 'paymentApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Payment-API-Key',
    description: "the terminal's paymentApiKey, issued by the operator API",
  });
  tag(hubTag, 'Transactions of merchant backends: init, lookup, cancel, confirm (signed: docs/payments-signing.md)');
  registerRoutes(registry, paymentsBasePath, Object.values(hubRoutes));
  registerRoutes(registry, paymentsBasePath, Object.values(refundHubRoutes));
  registerRoutes(registry, paymentsBasePath, Object.values(sessionRoutes));
  tag(providersTag, "Providers' signed callbacks, and the sandbox providers' hosted pages (docs/payments-sandbox.md)");
  registerRoutes(registry, providerCallbacksBasePath, Object.values(providerCallbackRoutes));
  registerRoutes(registry, providerCallbacksBasePath, Object.values(providerRefundCallbackRoutes));
  registerRoutes(registry, sandboxPagesBasePath, Object.values(sandboxPageRoutes));
}

export function registerPaymentsOperatorOpenApi({ registry, tag }: OpenApiRegistrar): void {
  tag(paymentMerchantsTag, 'Onboarding of the payment hub: merchants, terminals, keys, secrets, payment methods');
  registerOperatorRoutes(registry, paymentsOperatorRoutes);
  tag(paymentIpnTag, 'Notifications to partners (IPN): deliveries, attempts, resends (docs/ipn.md)');
  registerOperatorRoutes(registry, paymentIpnRoutes);
}
