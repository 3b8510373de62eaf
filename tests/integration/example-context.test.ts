/**
 * docs/conventions.md, "Adding a context", on the whole service (PostgreSQL): the example notes context
 * (tests/api/fast/example-context), added by one entry to the list of contexts the composition root builds, is served
 * by the operator API, its projector runs with the others and fills its read model, /ready reports it. The fast spec
 * (example-context.test.ts there) shows the same entry served by the in-memory harness.
 */
import { expect } from 'chai';
import { contexts } from '../../container.js';
import { notesContext } from '../api/fast/example-context/module.js';
import { operatorHeaders } from '../api/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';

describe('Adding a context (docs/conventions.md): the example notes context on the whole service (PostgreSQL)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ contexts: [...contexts, notesContext] });
  });
  after(() => app?.stop());

  it('writes a note over HTTP, and its projector puts it in its read model', async () => {
    const res = await fetch(`${app.baseUrl}/operator/v1/example-notes`, {
      method: 'POST',
      headers: { ...operatorHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ noteId: 'n-1', text: 'Xin chào' }),
    });
    expect(res.status, await res.clone().text()).to.equal(201);
    const row = await eventually(async () => {
      const [found] = (await app.db.knex('example_notes').where({ note_id: 'n-1' })) as { text: string }[];
      if (!found) throw new Error('not projected yet');
      return found;
    });
    expect(row.text).to.equal('Xin chào');
  });

  it('runs its projector with the service’s own and reports it at /ready', async () => {
    const ready = (await (await fetch(`${app.baseUrl}/ready`)).json()) as {
      roles: { projectors: { projector: string }[] };
    };
    const names = ready.roles.projectors.map((p) => p.projector);
    expect(names).to.include('example-notes');
    expect(names).to.include('shop-catalog');
  });
});
