/** The gateway credentials every test app accepts: startTestApp and the fast app register them for every interface. */
export const testGatewayClient = { clientId: 'test-client', clientSecret: 'test-client-secret-0123456789' };

/** The gateway's headers for a test request. */
export const gatewayHeaders = (): Record<string, string> => ({
  client_id: testGatewayClient.clientId,
  client_secret: testGatewayClient.clientSecret,
});

import type { GatewayEnvironment, GatewayServices } from '../../application/gateway/index.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import { gatewayInterfaces } from '../../application/shared/gateway.js';

/** The party testGatewayClient belongs to. */
export const testGatewayPartyId = 'test-party';

/**
 * Registers testGatewayClient's party (INTERNAL, every interface, no allowlist, the default limits) with that pair
 * imported for `environment`, the test deployment's.
 */
export async function registerTestGatewayClient(
  gateway: Pick<GatewayServices, 'parties'>,
  environment: GatewayEnvironment,
): Promise<void> {
  const asTests = () => newCommandContext({ actor: { operator: 'tests' } });
  await gateway.parties.register(asTests(), testGatewayPartyId, {
    name: 'Tests',
    kind: 'INTERNAL',
    interfaces: [...gatewayInterfaces],
    ipAllowlist: [],
    rateLimits: [],
  });
  await gateway.parties.issueCredential(asTests(), testGatewayPartyId, {
    environments: [environment],
    clientId: testGatewayClient.clientId,
    clientSecret: testGatewayClient.clientSecret,
  });
}
