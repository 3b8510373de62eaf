/**
 * The benchmarks' gateway party (docs/gateway.md): INTERNAL, every interface, the default rate limits, with the pair
 * the load sends imported for the benchmark deployment's environment (GATEWAY_ENVIRONMENT=prod, as deployed).
 */
import type { GatewayServices } from '../application/gateway/index.js';
import { newCommandContext } from '../application/shared/command-context.js';
import { gatewayInterfaces } from '../application/shared/gateway.js';

export const benchGatewayEnvironment = 'prod';
export const benchClient = { clientId: 'bench', clientSecret: 'bench-client-secret-0123456789-abcdef' };
export const benchGatewayHeaders = { client_id: benchClient.clientId, client_secret: benchClient.clientSecret };

export async function registerBenchParty(gateway: Pick<GatewayServices, 'parties'>): Promise<void> {
  const asBench = () => newCommandContext({ actor: { operator: 'bench' } });
  await gateway.parties.register(asBench(), 'bench', {
    name: 'Benchmarks',
    kind: 'INTERNAL',
    interfaces: [...gatewayInterfaces],
    ipAllowlist: [],
    rateLimits: [],
  });
  await gateway.parties.issueCredential(asBench(), 'bench', {
    environments: [benchGatewayEnvironment],
    ...benchClient,
  });
}
