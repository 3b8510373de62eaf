/**
 * Every route an app serves, as "METHOD /path/{param}", read from express's router stack: what the route tables
 * (api/<ctx>/*-routes.ts, mounted through api/shared/route-spec.ts) put there. tests/api/openapi-routes.test.ts and
 * tests/api/authorization-matrix.test.ts walk it, so a new route cannot escape either.
 */
import type { Express } from 'express';

/** The parts of express 4's router a walk reads (express keeps them in `app._router.stack`). */
interface Layer {
  regexp: RegExp & { fast_slash?: boolean };
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** The path a router is mounted at, from the pattern express made of it ('' for `use(router)` without a path). */
function mountPath(layer: Layer): string {
  if (layer.regexp.fast_slash) return '';
  const match = /^\^((?:\\\/[\w.-]+)+)\\\/\?\(\?=\\\/\|\$\)$/.exec(layer.regexp.source);
  if (!match) throw new Error(`cannot read the mount path of ${layer.regexp}`);
  return match[1]!.replace(/\\\//g, '/');
}

function walk(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      // `:id(\d+)` is documented as `{id}`.
      const path = prefix + layer.route.path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
      return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    }
    return layer.handle.stack ? walk(layer.handle.stack, prefix + mountPath(layer)) : [];
  });
}

/** "METHOD /path/{param}" of every route `app` serves, walking mounted routers. */
export function servedRoutes(app: Express): string[] {
  return walk((app as unknown as { _router: { stack: Layer[] } })._router.stack);
}
