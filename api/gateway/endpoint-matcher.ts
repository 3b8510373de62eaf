/**
 * Which of an interface's routes a request takes, as the gateway counts it (docs/gateway.md, "Rate limits"): the
 * route's `METHOD /path` as its spec writes it, or `*` for a path none of them takes (counted together). Matched as
 * express matches them: the path relative to the interface's base, parameters one segment each (or their pattern),
 * case-insensitive, an optional trailing slash; HEAD as GET.
 */
import { endpointName } from '../../application/gateway/index.js';
import type { GatewayFront } from '../shared/gateway-front.js';

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function compile(route: GatewayFront['routes'][number]): RegExp {
  const parts = route.path.split(/(\{\w+\})/).map((part) => {
    const param = /^\{(\w+)\}$/.exec(part);
    if (!param) return escape(part);
    const pattern = route.pathPatterns?.[param[1]!];
    return pattern ? `(?:${pattern})` : '[^/]+';
  });
  return new RegExp(`^${parts.join('')}/?$`, 'i');
}

export function endpointMatcher(routes: GatewayFront['routes']): (method: string, path: string) => string {
  const compiled = routes.map((r) => ({
    method: r.method.toUpperCase(),
    pattern: compile(r),
    name: endpointName(r.method, r.path),
  }));
  return (method, path) => {
    const m = method === 'HEAD' ? 'GET' : method;
    return compiled.find((r) => r.method === m && r.pattern.test(path))?.name ?? '*';
  };
}
