/**
 * API specifications in the style of Emmett's ApiSpecification: given these streams, when this HTTP request, then
 * this response and these appended events. Each scene gets a fresh in-memory event store and app; requests go over
 * a loopback socket. How to write one: docs/testing.md.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import { listen } from '../../api/shared/http-app.js';
import { fixedClock, type Clock } from '../../application/shared/clock.js';
import type { EventMetadata, RecordedEvent } from '../../application/shared/event-store.js';
import type { NumericIdGenerator } from '../../application/shared/ids.js';
import { InMemoryEventStore } from '../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { InMemoryNumericIds } from '../../infrastructure/shared/in-memory-numeric-ids.js';
import { call, type HeaderSet } from '../api/support.js';
import { expectMatch, matching } from './match.js';

export { matching, satisfying } from './match.js';

/** Events already in a stream when the request comes. */
export interface GivenStream {
  streamName: string;
  events: { type: string; data: unknown; metadata?: Partial<EventMetadata> }[];
}

export const existingStream = (streamName: string, events: GivenStream['events']): GivenStream => ({
  streamName,
  events,
});

export interface ApiRequest {
  method: string;
  path: string;
  headers?: HeaderSet;
  /** Sent as the JSON body (Content-Type application/json unless the headers say otherwise). */
  json?: unknown;
  rawBody?: string;
}

export interface ApiResponse<Body = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the body is not JSON. */
  body: Body;
}

export interface ApiOutcome<Body = unknown> {
  response: ApiResponse<Body>;
  /** Events the request appended, by stream, in log order (not the given ones, nor earlier requests'). */
  appended: Map<string, RecordedEvent[]>;
  store: InMemoryEventStore;
}

export type ApiAssertion<Body = unknown> = (outcome: ApiOutcome<Body>) => void | Promise<void>;

/** A value, or what to expect computed from the outcome (say, a stream named by a key in the response). */
export type Expected<T, Body> = T | ((outcome: ApiOutcome<Body>) => T);

/** An appended event as expected: type and data (exact unless `matching`), metadata (only the keys given). */
export interface ExpectedEvent {
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

export interface ApiScene {
  store: InMemoryEventStore;
  clock: ReturnType<typeof fixedClock>;
  /** Sends the request; `then` asserts on what it answered and appended, and resolves to that outcome. */
  when<Body = unknown>(request: ApiRequest): { then(...assertions: ApiAssertion<Body>[]): Promise<ApiOutcome<Body>> };
}

export interface ApiSpecOptions {
  /** Builds the app under test around the scene's store, ids and clock (tests/support/fast-app.ts). */
  app: (deps: { store: InMemoryEventStore; ids: NumericIdGenerator; clock: Clock }) => Express;
  /** The fixed clock's start (default 2026-03-01T10:00:00.000Z). */
  now?: string;
  /** Last value of each numeric id sequence, so that new ids pass those the given events use. */
  lastIds?: Record<string, number>;
}

/** The in-memory store answers any limit in one read. */
const everything = Number.MAX_SAFE_INTEGER;

/** Position of the last event in the store (null when empty): what the request appends comes after it. */
async function headOf(store: InMemoryEventStore): Promise<string | null> {
  return (await store.readAll(null, everything)).at(-1)?.position ?? null;
}

async function appendedSince(
  store: InMemoryEventStore,
  checkpoint: string | null,
): Promise<Map<string, RecordedEvent[]>> {
  const appended = new Map<string, RecordedEvent[]>();
  for (const event of await store.readAll(checkpoint, everything))
    appended.set(event.streamName, [...(appended.get(event.streamName) ?? []), event]);
  return appended;
}

/**
 * `const given = apiSpecification({ app: buildFastApp })`, then
 * `given(existingStream(...), ...).when(request).then(expectResponse(...), expectNewEvents(...))`. A scene can take
 * several requests in turn (`const scene = given(...)`; `await scene.when(a).then(...)`; `await scene.when(b)...`).
 */
export function apiSpecification(options: ApiSpecOptions): (...given: GivenStream[]) => ApiScene {
  return (...given) => {
    const clock = fixedClock(options.now ?? '2026-03-01T10:00:00.000Z');
    const store = new InMemoryEventStore({ clock });
    const app = options.app({ store, ids: new InMemoryNumericIds(options.lastIds), clock });
    let settingUp: Promise<unknown> | undefined;
    const setUp = () =>
      (settingUp ??=
        given.length === 0
          ? Promise.resolve()
          : store.appendMany(
              given.map(({ streamName, events }) => ({
                streamName,
                events: events.map((e) => ({
                  id: randomUUID(),
                  type: e.type,
                  data: e.data,
                  metadata: { occurredAt: clock.now().toISOString(), ...e.metadata },
                })),
                expectedVersion: 'any' as const,
              })),
            ));
    return {
      store,
      clock,
      when: <Body>(request: ApiRequest) => ({
        async then(...assertions: ApiAssertion<Body>[]): Promise<ApiOutcome<Body>> {
          await setUp();
          const checkpoint = await headOf(store);
          const server = await listen(app, 0, '127.0.0.1');
          let outcome: ApiOutcome<Body>;
          try {
            const { method, path, ...rest } = request;
            const res = await call(`http://127.0.0.1:${server.port}`, method, path, rest);
            const response = { status: res.status, headers: res.headers, text: res.text, body: res.body as Body };
            outcome = { response, appended: await appendedSince(store, checkpoint), store };
          } finally {
            await server.close(1000);
          }
          for (const assertion of assertions) await assertion(outcome);
          return outcome;
        },
      }),
    };
  };
}

const resolve = <T, Body>(expected: Expected<T, Body>, outcome: ApiOutcome<Body>): T =>
  typeof expected === 'function' ? (expected as (o: ApiOutcome<Body>) => T)(outcome) : expected;

/** One line per stream the request appended to, for failure messages. */
function describeAppended(appended: Map<string, RecordedEvent[]>): string {
  if (appended.size === 0) return 'nothing was appended';
  return `appended: ${[...appended].map(([stream, events]) => `${stream} [${events.map((e) => e.type).join(', ')}]`).join('; ')}`;
}

/** The status, and the body (exact, or only what `matching` lists) and headers (those named) when given. */
export function expectResponse<Body = unknown>(
  status: number,
  options: { body?: Expected<object | string | number | boolean | null, Body>; headers?: Record<string, string> } = {},
): ApiAssertion<Body> {
  return (outcome) => {
    const { response } = outcome;
    expect(response.status, `status; body: ${response.text}`).to.equal(status);
    if (options.body !== undefined) expectMatch(response.body, resolve(options.body, outcome), 'response body');
    for (const [name, value] of Object.entries(options.headers ?? {}))
      expect(response.headers.get(name), `header ${name}`).to.equal(value);
  };
}

function expectEventsIn(
  stream: string,
  actual: RecordedEvent[],
  expected: ExpectedEvent[],
  appended: Map<string, RecordedEvent[]>,
): void {
  const cut = actual.map((e, i) => ({
    type: e.type,
    data: e.data,
    ...(expected[i]?.metadata ? { metadata: e.metadata } : {}),
  }));
  const wanted = expected.map((e) => ({
    type: e.type,
    data: e.data,
    ...(e.metadata ? { metadata: matching(e.metadata) } : {}),
  }));
  expectMatch(cut, wanted, `events appended to ${stream} (${describeAppended(appended)})`);
}

/**
 * Exactly these events (in order) appended to the stream by the request. The stream is named, computed from the
 * outcome, or a pattern that exactly one stream appended to must match. Other streams are not looked at.
 */
export function expectNewEvents<Body = unknown>(
  stream: Expected<string, Body> | RegExp,
  events: Expected<ExpectedEvent[], Body>,
): ApiAssertion<Body> {
  return (outcome) => {
    const { appended } = outcome;
    let name: string;
    if (stream instanceof RegExp) {
      const matches = [...appended.keys()].filter((s) => stream.test(s));
      expect(matches, `streams matching ${stream} (${describeAppended(appended)})`).to.have.length(1);
      name = matches[0]!;
    } else name = resolve(stream, outcome);
    expectEventsIn(name, appended.get(name) ?? [], resolve(events, outcome), appended);
  };
}

/** Exactly these streams, each with exactly these events, appended by the request; nothing else. */
export function expectAppended<Body = unknown>(
  streams: Expected<Record<string, ExpectedEvent[]>, Body>,
): ApiAssertion<Body> {
  return (outcome) => {
    const { appended } = outcome;
    const expected = resolve(streams, outcome);
    expect([...appended.keys()].sort(), describeAppended(appended)).to.deep.equal(Object.keys(expected).sort());
    for (const [stream, events] of Object.entries(expected))
      expectEventsIn(stream, appended.get(stream) ?? [], events, appended);
  };
}

/** The request appended nothing, to any stream. */
export function expectNoNewEvents<Body = unknown>(): ApiAssertion<Body> {
  return ({ appended }) => {
    expect(appended.size, describeAppended(appended)).to.equal(0);
  };
}
