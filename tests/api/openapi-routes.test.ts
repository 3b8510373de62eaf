import { expect } from 'chai';
import { buildOpenApiDocument } from '../../api/shared/openapi.js';
import { openApi } from '../../container.js';
import { startTestApp, type TestApp } from '../support/app.js';

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

/** "METHOD /path/{param}" of every route served under `stack`, walking mounted routers. */
function servedRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      // `:id(\d+)` is documented as `{id}`.
      const path = prefix + layer.route.path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
      return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    }
    return layer.handle.stack ? servedRoutes(layer.handle.stack, prefix + mountPath(layer)) : [];
  });
}

/** Served, and on purpose not documented: the document itself. */
const undocumented = ['GET /openapi.json'];

describe('the OpenAPI document and the routes the app serves', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false });
  });
  after(() => app?.stop());

  it('documents every route the app serves, and serves every documented one, with its method', () => {
    const stack = (app.container.app as unknown as { _router: { stack: Layer[] } })._router.stack;
    const served = servedRoutes(stack).filter((route) => !undocumented.includes(route));
    const doc = buildOpenApiDocument(openApi);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']
        .filter((method) => method in item)
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(served, 'a route served twice').to.have.length(new Set(served).size);
    expect(served.length).to.be.greaterThan(30);
    expect(served).to.have.members(documented);
  });

  it('reads the mount paths of the interfaces (the walk above sees their routes)', () => {
    const stack = (app.container.app as unknown as { _router: { stack: Layer[] } })._router.stack;
    const served = servedRoutes(stack);
    expect(served).to.include.members([
      'GET /health',
      'GET /api/v1/vouchers/{id}',
      'GET /api/v1/vouchers/reservation/{key}',
      'POST /operator/v1/merchants',
    ]);
  });
});
