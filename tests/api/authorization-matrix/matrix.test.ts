/**
 * The authorization matrix (issue 29; who may do what: docs/gateway.md and each interface's doc): every route the app
 * serves, read from the router the route tables (api/<ctx>/*-routes.ts) mount, × the credentials that must not reach
 * it: none, another gateway party's, the interface's own credential left out, another merchant's key, another
 * merchant or user naming A's things, a token without the scope. Each answer is a refusal in the interface's own
 * status and code, and appends nothing to the event store. Which case applies to which route, and its refusal, is
 * each interface's table (tables.ts); a served route no table names fails, as does a named route that is not served.
 */
import { expect } from 'chai';
import { servedRoutes } from '../../support/served-routes.js';
import { call } from '../support.js';
import { matrixWorld, type MatrixWorld } from './fixtures.js';
import {
  cases,
  interfaceTables,
  methodOf,
  operatorApi,
  pathOf,
  publicRoutes,
  type Case,
  type Expected,
  type InterfaceTable,
  type Probe,
} from './tables.js';

/** A path with each `{param}` filled with a value every pattern takes. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, '1');

describe('Authorization matrix: every served route × credentials that must not reach it', function () {
  this.timeout(120_000);
  let w: MatrixWorld;
  let tables: InterfaceTable[];
  before(async () => {
    w = await matrixWorld();
    tables = interfaceTables(w);
  });
  after(() => w?.stop());

  const served = () => servedRoutes(w.app.container.app).filter((r) => r !== 'GET /openapi.json');
  const isOperator = (route: string) => pathOf(route).startsWith(`${operatorApi.base}/`);

  const eventCount = async () =>
    Number(((await w.app.container.knex.raw('SELECT count(*) AS n FROM events')).rows as { n: string }[])[0]!.n);

  /** Sends the probe; checks the refusal and that nothing was appended. */
  async function refused(route: string, kind: string, probe: Probe, expected: Expected, label: string) {
    const before = await eventCount();
    const res = await call<unknown>(w.app.baseUrl, methodOf(route), probe.path ?? concrete(pathOf(route)), {
      headers: probe.headers,
      ...(probe.json !== undefined && { json: probe.json }),
    });
    const body = (res.body ?? {}) as { code?: unknown; error?: unknown };
    const code = String(body.code ?? body.error); // the OAuth endpoints answer RFC 6749's `error`
    expect([res.status, code], `${label} ${route} × ${kind}: ${res.text.slice(0, 300)}`).to.deep.equal([...expected]);
    expect(await eventCount(), `${label} ${route} × ${kind} appended events`).to.equal(before);
  }

  it('names every served route in exactly one table (a new route must be put in the matrix)', () => {
    const named = [
      ...Object.keys(publicRoutes),
      ...tables.flatMap((t) => Object.keys(t.routes).map((r) => `${methodOf(r)} ${t.base}${pathOf(r)}`)),
    ];
    expect(named, 'a route named twice').to.have.length(new Set(named).size);
    expect(served().filter((r) => !isOperator(r))).to.have.members(named);
    expect(served().filter(isOperator).length).to.be.greaterThan(40);
  });

  for (const kind of cases)
    it(`refuses ${kind} on every route it applies to, in the interface's code, appending nothing`, async () => {
      let probed = 0;
      for (const table of tables)
        for (const [route, applies] of Object.entries(table.routes) as [string, readonly Case[]][]) {
          if (!applies.includes(kind)) continue;
          const refusal = table.refusals[kind];
          expect(refusal, `${table.name}: no refusal for ${kind}`).to.not.equal(undefined);
          const expected = typeof refusal === 'function' ? refusal(route) : refusal!;
          const full = `${methodOf(route)} ${table.base}${pathOf(route)}`;
          await refused(full, kind, table.probe(route, kind), expected, table.name);
          probed++;
        }
      expect(probed, `no route takes ${kind}`).to.be.greaterThan(0);
    });

  it('refuses every operator route without the operator token, or with a wrong one (401 OPS-AUTH-001)', async () => {
    for (const route of served().filter(isOperator)) {
      const json = ['GET', 'DELETE'].includes(methodOf(route)) ? undefined : {};
      await refused(route, 'none', { headers: {}, json }, operatorApi.refusal, 'operator');
      const wrong = { Authorization: `Bearer ${operatorApi.wrongToken}` };
      await refused(route, 'wrong operator token', { headers: wrong, json }, operatorApi.refusal, 'operator');
    }
  });
});
