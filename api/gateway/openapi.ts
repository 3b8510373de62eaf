/**
 * The gateway in the OpenAPI document: the credential headers every interface behind it takes (security schemes
 * `clientId` and `clientSecret`; the `env` header is a parameter of the interfaces that read it) and its operator
 * routes (operator-routes.ts, which operator-router.ts mounts).
 */
import type { OpenApiRegistrar } from '../shared/openapi.js';
import { registerOperatorRoutes } from '../shared/operator-openapi.js';
import { gatewayOperatorRoutes, gatewayPartiesTag } from './operator-routes.js';

export function registerGatewayOpenApi({ registry, tag }: OpenApiRegistrar): void {
  const header = (name: string, description: string) => ({
    type: 'apiKey' as const,
    in: 'header' as const,
    name,
    description,
  });
  registry.registerComponent(
    'securitySchemes',
    'clientId',
    header('client_id', "the gateway client id of the calling party (issued by the gateway's operator API)"),
  );
  registry.registerComponent(
    'securitySchemes',
    'clientSecret',
    header('client_secret', 'the gateway client secret of that client id (shown once when issued)'),
  );
  tag(gatewayPartiesTag, 'Parties of the gateway in front of every interface, and their client credentials');
  registerOperatorRoutes(registry, gatewayOperatorRoutes);
}
