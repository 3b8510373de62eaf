/**
 * The gateway's application layer, as the API and the composition root see it: its services, the rate-limiter port
 * its adapters implement, and the domain vocabulary its interfaces need. Import this file from outside
 * application/gateway (docs/conventions.md, "Modules").
 */
export * from './client-secrets.js';
export * from './directory.js';
export * from './endpoint-catalog.js';
export * from './gateway-check.js';
export * from './ip-allowlist.js';
export * from './party-admin.js';
export * from './rate-limiter.js';

import type { EndpointCatalog } from './endpoint-catalog.js';
import type { GatewayCheck } from './gateway-check.js';
import type { GatewayPartyAdmin } from './party-admin.js';

/** The gateway's services, as its module builds them (infrastructure/gateway) and its API uses them (api/gateway). */
export interface GatewayServices {
  /** Operators' parties and credentials. */
  parties: GatewayPartyAdmin;
  /** The check of every request to an interface. */
  check: GatewayCheck;
  /** The endpoints each interface serves here (declared by the gateway in front of it). */
  endpoints: EndpointCatalog;
}

// The domain's vocabulary the interfaces need (commands' value types, enums, typed error codes) reaches them
// through this file: api/ imports application/ only.
export * from '../../domain/gateway/index.js';
