/**
 * The endpoints each interface serves in this deployment, as the gateway counts them (docs/gateway.md, "Rate
 * limits"): `METHOD /path` of one of its routes. The gateway in front of an interface declares them
 * (api/gateway/guard.ts), so that an operator's per-endpoint limit must name an endpoint that exists.
 */
import {
  allEndpoints,
  invalidParty,
  type GatewayInterface,
  type RateLimitOverride,
} from '../../domain/gateway/index.js';

export class EndpointCatalog {
  private readonly endpoints = new Map<GatewayInterface, Set<string>>();

  declare(gatewayInterface: GatewayInterface, endpoints: readonly string[]): void {
    const known = this.endpoints.get(gatewayInterface) ?? new Set<string>();
    for (const e of endpoints) known.add(e);
    this.endpoints.set(gatewayInterface, known);
  }

  /** The endpoints of `gatewayInterface`, sorted (none: it serves none here). */
  of(gatewayInterface: GatewayInterface): string[] {
    return [...(this.endpoints.get(gatewayInterface) ?? [])].sort();
  }

  /** Refuses an override naming an endpoint its interface does not serve (`*` is always taken). */
  assertKnown(rateLimits: readonly RateLimitOverride[]): void {
    rateLimits.forEach((r, i) => {
      if (r.endpoint === allEndpoints || this.endpoints.get(r.interface)?.has(r.endpoint)) return;
      const known = this.of(r.interface);
      throw invalidParty(
        `rateLimits[${i}].endpoint`,
        known.length
          ? `${r.interface} has no endpoint ${r.endpoint}; it has ${known.join(', ')} (or * for all)`
          : `${r.interface} serves no endpoint in this deployment: only * can be limited`,
      );
    });
  }
}

/** How an endpoint is named: the route's method in capitals and its path as its spec writes it. */
export const endpointName = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;
