import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import express from 'express';
import {
  apiSpecification,
  existingStream,
  expectAppended,
  expectNewEvents,
  expectNoNewEvents,
  expectResponse,
  matching,
  type ApiAssertion,
} from '../../support/api-spec.js';

/** A two-route app: POST /notes/:id appends NoteTaken (and a Tagged event per tag); GET /notes/:id reads them. */
const given = apiSpecification({
  now: '2026-03-01T10:00:00.000Z',
  app: ({ store, ids, clock }) => {
    const app = express();
    app.use(express.json());
    app.post('/notes/:id', async (req, res) => {
      const [seq] = await ids.next('note');
      const metadata = { occurredAt: clock.now().toISOString(), actor: { userId: 'u1' } };
      const tags = (req.body.tags ?? []) as string[];
      await store.appendMany([
        {
          streamName: `note-${req.params.id}`,
          events: [{ id: randomUUID(), type: 'NoteTaken', data: { text: req.body.text, seq }, metadata }],
          expectedVersion: 'any',
        },
        ...tags.map((tag) => ({
          streamName: `tag-${tag}`,
          events: [{ id: randomUUID(), type: 'Tagged', data: { note: req.params.id }, metadata }],
          expectedVersion: 'any' as const,
        })),
      ]);
      res.status(201).json({ id: req.params.id, seq, at: clock.now().toISOString() });
    });
    app.get('/notes/:id', async (req, res) => {
      res.json((await store.readStream(`note-${req.params.id}`)).map((e) => e.data));
    });
    return app;
  },
});

const take = (id: string, text: string, tags?: string[]) => ({
  method: 'POST',
  path: `/notes/${id}`,
  json: { text, tags },
});

async function rejects(attempt: Promise<unknown>, message?: RegExp): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the spec should have failed').to.be.instanceOf(Error);
  if (message) expect((error as Error).message).to.match(message);
}

describe('apiSpecification (tests/support/api-spec.ts)', () => {
  it('passes when the response and the events appended by the request are as expected, and answers the outcome', async () => {
    const outcome = await given(existingStream('note-1', [{ type: 'NoteTaken', data: { text: 'old', seq: 0 } }]))
      .when(take('1', 'new', ['a']))
      .then(
        expectResponse(201, { body: { id: '1', seq: 1, at: '2026-03-01T10:00:00.000Z' } }),
        expectAppended({
          'note-1': [{ type: 'NoteTaken', data: { text: 'new', seq: 1 }, metadata: { actor: { userId: 'u1' } } }],
          'tag-a': [{ type: 'Tagged', data: { note: '1' } }],
        }),
        expectNewEvents(/^tag-/, [{ type: 'Tagged', data: { note: '1' } }]),
      );
    expect(outcome.response.status).to.equal(201);
    expect((await outcome.store.readStream('note-1')).map((e) => e.data)).to.have.length(2);
  });

  it('runs several requests in one scene, each checked against its own appended events and the clock set between', async () => {
    const scene = given();
    await scene
      .when(take('1', 'first'))
      .then(expectNewEvents('note-1', [{ type: 'NoteTaken', data: { text: 'first', seq: 1 } }]));
    scene.clock.advance(60_000);
    await scene
      .when(take('1', 'second'))
      .then(
        expectResponse(201, { body: matching({ at: '2026-03-01T10:01:00.000Z' }) }),
        expectNewEvents('note-1', [{ type: 'NoteTaken', data: { text: 'second', seq: 2 } }]),
      );
    await scene
      .when({ method: 'GET', path: '/notes/1' })
      .then(
        expectResponse(200, { body: [matching({ text: 'first' }), matching({ text: 'second' })] }),
        expectNoNewEvents(),
      );
  });

  describe('fails', () => {
    const spec = (...assertions: ApiAssertion[]) =>
      given()
        .when(take('1', 'x', ['a']))
        .then(...assertions);

    it('on another status or body', async () => {
      await rejects(spec(expectResponse(200)), /status/);
      await rejects(spec(expectResponse(201, { body: { id: '1', seq: 1 } })), /response body/);
    });

    it('on events other than expected in a stream: another type, other data, missing, extra, other metadata', async () => {
      await rejects(spec(expectNewEvents('note-1', [{ type: 'NoteWritten', data: { text: 'x', seq: 1 } }])), /note-1/);
      await rejects(spec(expectNewEvents('note-1', [{ type: 'NoteTaken', data: { text: 'y', seq: 1 } }])));
      await rejects(spec(expectNewEvents('note-1', [])));
      await rejects(spec(expectNewEvents('note-2', [{ type: 'NoteTaken', data: { text: 'x', seq: 1 } }])));
      await rejects(
        spec(
          expectNewEvents('note-1', [
            { type: 'NoteTaken', data: { text: 'x', seq: 1 }, metadata: { actor: { userId: 'u2' } } },
          ]),
        ),
      );
    });

    it('on a stream appended to that expectAppended does not name, or one it names that got nothing', async () => {
      await rejects(spec(expectAppended({ 'note-1': [{ type: 'NoteTaken', data: { text: 'x', seq: 1 } }] })), /tag-a/);
      await rejects(
        spec(
          expectAppended({
            'note-1': [{ type: 'NoteTaken', data: { text: 'x', seq: 1 } }],
            'tag-a': [{ type: 'Tagged', data: { note: '1' } }],
            'tag-b': [],
          }),
        ),
      );
    });

    it('on any event when none is expected, and on a pattern matching no stream or several', async () => {
      await rejects(spec(expectNoNewEvents()), /note-1 \[NoteTaken\]/);
      await rejects(spec(expectNewEvents(/^nothing-/, [])));
      await rejects(spec(expectNewEvents(/-/, [])));
    });

    it('without counting the given events as appended by the request', async () => {
      await rejects(
        given(existingStream('tag-b', [{ type: 'Tagged', data: { note: '0' } }]))
          .when(take('1', 'x'))
          .then(expectNewEvents('tag-b', [{ type: 'Tagged', data: { note: '0' } }])),
      );
    });
  });
});
