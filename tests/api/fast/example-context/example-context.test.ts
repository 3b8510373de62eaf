/**
 * docs/conventions.md, "Adding a context", followed to the letter: a tiny context (one command, one decider, one event,
 * one projector, one route; this folder) registered by one entry in a list of contexts, served by the fast in-memory
 * harness with the service's own contexts, answering over HTTP. Nothing of the service names it: if this passes, the
 * one entry is all a context needs.
 */
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../../../api/shared/openapi.js';
import { registerOperatorOpenApi } from '../../../../api/shared/operator-openapi.js';
import { contexts } from '../../../../container.js';
import {
  apiSpecification,
  existingStream,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  type ApiRequest,
} from '../../../support/api-spec.js';
import { buildFastApp } from '../../../support/fast-app.js';
import { operatorHeaders } from '../../support.js';
import { notesContext } from './module.js';
import { notesProjector } from './projections.js';

const now = '2026-03-01T10:00:00.000Z';
/** The one registration: the service's contexts and the example's entry. */
const withNotes = [...contexts, notesContext];
const given = apiSpecification({ app: (deps) => buildFastApp({ ...deps, contexts: withNotes }), now });
const writeNote = (json: unknown): ApiRequest => ({
  method: 'POST',
  path: '/operator/v1/example-notes',
  headers: operatorHeaders(),
  json,
});

describe('Adding a context (docs/conventions.md): the example notes context, registered once, served fast', () => {
  it('writes a note: 201 with the note, NoteWritten appended to its stream by the operator', () =>
    given()
      .when(writeNote({ noteId: 'n-1', text: ' Xin chào ' }))
      .then(
        expectResponse(201, {
          body: { code: 'SUCCESS', message: 'Success', data: { noteId: 'n-1', text: 'Xin chào', writtenAt: now } },
        }),
        expectAppended({
          'exampleNote-n-1': [
            {
              type: 'NoteWritten',
              data: { noteId: 'n-1', text: 'Xin chào', writtenAt: now },
              metadata: { actor: { operator: 'alice' } },
            },
          ],
        }),
      ));

  it('refuses a second note of one id through its own error table: 409 OPS-CONFLICT, nothing appended', () =>
    given(
      existingStream('exampleNote-n-1', [
        { type: 'NoteWritten', data: { noteId: 'n-1', text: 'first', writtenAt: '2026-02-01T00:00:00.000Z' } },
      ]),
    )
      .when(writeNote({ noteId: 'n-1', text: 'second' }))
      .then(
        expectResponse(409, {
          body: { code: 'OPS-CONFLICT', message: 'note n-1 is written already', data: { field: 'noteId' } },
        }),
        expectNoNewEvents(),
      ));

  it('refuses a body its schema does not take with the operator API’s code, naming the field', () =>
    given()
      .when(writeNote({ noteId: 'n-2', text: '' }))
      .then(
        expectResponse(400, {
          body: {
            code: 'OPS-REQ-001',
            message: 'text: must be a string of 1 to 280 characters',
            data: { field: 'text' },
          },
        }),
        expectNoNewEvents(),
      ));

  it('serves the service’s contexts beside it, unchanged', () =>
    given()
      .when({
        method: 'POST',
        path: '/operator/v1/voucher-categories',
        headers: operatorHeaders(),
        json: { name: 'Du lịch' },
      })
      .then(expectResponse(201)));

  it('its projector reads what the route appended: the context’s types, through the context’s decoder', async () => {
    const { appended } = await given()
      .when(writeNote({ noteId: 'n-3', text: 'projected' }))
      .then(expectResponse(201));
    const [written] = appended.get('exampleNote-n-3')!;
    expect(notesContext.projectors).to.deep.equal([notesProjector]);
    expect(notesProjector.eventTypes.has(written!.type)).to.equal(true);
    expect(notesContext.events.has(written!.type)).to.equal(true);
    expect(notesProjector.decoder.decode(written!).data).to.deep.equal({
      noteId: 'n-3',
      text: 'projected',
      writtenAt: now,
    });
  });

  it('documents its route in the OpenAPI document from the same spec it mounts', () => {
    const document = buildOpenApiDocument({
      description: notesContext.api.description,
      registrations: [registerOperatorOpenApi, ...notesContext.api.openApi],
    });
    expect(document.paths['/operator/v1/example-notes']?.post?.operationId).to.equal('writeExampleNote');
  });
});
