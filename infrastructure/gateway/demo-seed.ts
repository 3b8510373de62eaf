/**
 * The gateway's demo parties for `npm start` (docs/gateway.md, "Demo"): one INTERNAL party per interface, granted
 * that interface, with a credential for the demo deployment's environments. A secret is shown once, so the seed keeps
 * the pairs in `<dataDir>/demo-credentials.json` (key `gateway`, next to the shop's demo key) and later starts read
 * them; a pair missing from the file, or revoked meanwhile, is replaced by a new one.
 */
import {
  gatewayInterfaces,
  type GatewayEnvironment,
  type GatewayInterface,
  type GatewayServices,
} from '../../application/gateway/index.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import { keepDemoCredentials, readDemoCredentials } from '../shared/demo-credentials.js';
import { isDomainError } from '../../application/shared/errors.js';
import type { DemoSeed } from '../shared/demo-seed.js';
import type { GatewayConfig } from './config.js';

export interface GatewayDemoCredential {
  partyId: string;
  clientId: string;
  clientSecret: string;
  environments: GatewayEnvironment[];
}

export type GatewayDemoData = Record<GatewayInterface, GatewayDemoCredential>;

const asSeed = () => newCommandContext({ actor: { operator: 'demo-seed' } });

const names: Record<GatewayInterface, string> = {
  shop: 'Demo shop backend',
  checkout: 'Demo order system (promotion checkout)',
  payments: 'Demo merchant backend (payment hub)',
  orders: 'Demo business unit backend (order view)',
  identity: 'Demo mini-app backend (identity)',
  files: 'Demo mini-app (file upload)',
};

export async function seedGatewayDemo(gateway: GatewayServices, dataDir: string): Promise<GatewayDemoData> {
  const saved = (readDemoCredentials(dataDir).gateway ?? {}) as Partial<GatewayDemoData>;
  const environments: GatewayEnvironment[] = gateway.check.environment === 'prod' ? ['prod'] : ['dev', 'sit', 'uat'];

  const data = {} as GatewayDemoData;
  for (const gatewayInterface of gatewayInterfaces) {
    const partyId = `demo-${gatewayInterface}`;
    const party = await gateway.parties.get(partyId).catch(async (e: unknown) => {
      if (!isDomainError(e) || e.code !== 'PARTY_NOT_FOUND') throw e;
      return gateway.parties.register(asSeed(), partyId, {
        name: names[gatewayInterface],
        kind: 'INTERNAL',
        interfaces: [gatewayInterface],
        ipAllowlist: [],
        rateLimits: [],
      });
    });
    const kept = saved[gatewayInterface];
    const usable = party.credentials.find(
      (c) =>
        c.clientId === kept?.clientId &&
        c.status === 'ACTIVE' &&
        environments.every((env) => c.environments.includes(env)),
    );
    if (kept && usable) {
      data[gatewayInterface] = kept;
      continue;
    }
    // The first pair is named after the interface; a replacement gets a generated id (client ids are never reused).
    const taken = party.credentials.some((c) => c.clientId === partyId);
    const issued = await gateway.parties.issueCredential(asSeed(), partyId, {
      environments,
      clientId: taken ? undefined : partyId,
    });
    data[gatewayInterface] = { partyId, clientId: issued.clientId, clientSecret: issued.clientSecret, environments };
  }
  keepDemoCredentials(dataDir, { gateway: data });
  return data;
}

/**
 * The gateway's module seed (context-module.ts, `demo`): the parties above, offered to later seeds as their interfaces'
 * demo clients (the order view's seed sends its orders through the gateway with its pair), and the banner's lines.
 */
export const gatewayDemo: DemoSeed<GatewayServices, GatewayConfig> = async (services, demo) => {
  const gateway = await seedGatewayDemo(services, demo.config.DATA_DIR);
  return {
    clients: gateway,
    lines: [
      `  gateway (client_id / client_secret, for ${gateway.shop.environments.join(', ')}), one party per interface:`,
      ...Object.entries(gateway).map(([name, c]) => `    ${`${name}:`.padEnd(19)}${c.clientId} / ${c.clientSecret}`),
    ],
  };
};
