import { expect } from 'chai';
import { buildOpenApiDocument } from '../../api/shared/openapi.js';
import { openApi } from '../../container.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { servedRoutes } from '../support/served-routes.js';

/** Served, and on purpose not documented: the document itself. */
const undocumented = ['GET /openapi.json'];

describe('the OpenAPI document and the routes the app serves', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false });
  });
  after(() => app?.stop());

  it('documents every route the app serves, and serves every documented one, with its method', () => {
    const served = servedRoutes(app.container.app).filter((route) => !undocumented.includes(route));
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
    const served = servedRoutes(app.container.app);
    expect(served).to.include.members([
      'GET /health',
      'GET /api/v1/vouchers/{id}',
      'GET /api/v1/vouchers/reservation/{key}',
      'POST /operator/v1/merchants',
    ]);
  });
});
