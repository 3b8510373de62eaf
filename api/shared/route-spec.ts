/**
 * A route declared once (docs/conventions.md, "Routes"): its method, path and zod schemas are what the router mounts
 * and what the interface's OpenAPI registration documents, so the two cannot drift. tests/api/openapi-routes.test.ts
 * checks that every route the app serves is documented and every documented one served.
 */
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { RequestHandler, Router } from 'express';
import { refuseControlCharacters } from './control-characters.js';
import { on, type RouteHandler } from './route.js';

export interface RouteSpec extends RouteConfig {
  /** Relative to the interface's base path, in OpenAPI form: `/vouchers/{id}`. */
  path: string;
  /** A pattern a path parameter must match for the route to match at all (else the next route, or the 404). */
  pathPatterns?: Readonly<Record<string, string>>;
}

/** The express form of the spec's path: `/vouchers/{id}` with `{ id: '\\d+' }` is `/vouchers/:id(\\d+)`. */
export function expressPath(spec: Pick<RouteSpec, 'path' | 'pathPatterns'>): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const pattern = spec.pathPatterns?.[name];
    return pattern ? `:${name}(${pattern})` : `:${name}`;
  });
}

/**
 * Mounts the route on `router`: its middleware (auth, body parsing), the refusal of control characters in any of
 * its input (api/shared/control-characters.ts), then the handler.
 */
export function mount(router: Router, spec: RouteSpec, middleware: RequestHandler[], handler: RouteHandler): void {
  router[spec.method](expressPath(spec), ...middleware, refuseControlCharacters, on(handler));
}

/** Documents the routes as served under `basePath` (where the interface's router is mounted). */
export function registerRoutes(registry: OpenAPIRegistry, basePath: string, specs: Iterable<RouteSpec>): void {
  for (const { pathPatterns: _, ...route } of specs) registry.registerPath({ ...route, path: basePath + route.path });
}
