import type { Knex } from 'knex';
import type { StreamWrite } from '../../../application/shared/event-store.js';

/**
 * The single statement that writes a whole `appendMany` batch to PostgreSQL
 * (schema: migration 0002_event_store). Its input is column arrays, one entry
 * per stream, write or event; data and metadata travel as two JSON arrays, so
 * each is serialised once.
 *
 * 1. `streams` creates missing streams directly at their final revision and
 *    moves existing ones forward, locking every row in the order given
 *    (sorted by name, so concurrent batches cannot deadlock). ON CONFLICT DO
 *    UPDATE sees the latest committed revision, even one committed after the
 *    statement began.
 * 2. `writes`: the revision each write found, i.e. its stream's final
 *    revision minus the events of this and later writes to it in the batch.
 * 3. `checked`: those revisions as one array, and the first write whose
 *    expected version does not hold.
 * 4. `appended` inserts the events only if every expected version holds
 *    (otherwise nothing, and the statement raises ES409, so that nothing of
 *    it stays, stream revisions included), each at its write's
 *    revision plus its place in the write. `nextval` is evaluated above the
 *    subquery ordered by input position, so the transaction's sequence
 *    numbers grow in the order the events were given.
 *
 * Writes and events find their stream's and write's revision in a one-row
 * aggregate (JSON object, array) rather than by joining: PostgreSQL has no
 * statistics on unnest() results and estimates such joins quadratically too
 * big, and a big enough estimate makes it JIT-compile the statement, which
 * then costs more than it runs.
 */
export const appendStatement = `
  WITH streams AS (
    INSERT INTO event_streams AS s (stream_name, revision)
    SELECT name, added - 1 FROM unnest(?::text[], ?::bigint[]) WITH ORDINALITY AS input(name, added, ord) ORDER BY ord
    ON CONFLICT (stream_name) DO UPDATE SET revision = s.revision + excluded.revision + 1
    RETURNING stream_name, revision
  ), final AS (
    SELECT jsonb_object_agg(stream_name, revision) AS revisions FROM streams
  ), writes AS (
    SELECT input.ord, input.expected, (final.revisions ->> input.stream_name)::bigint - input.remaining AS revision_before
    FROM unnest(?::text[], ?::bigint[], ?::text[]) WITH ORDINALITY AS input(stream_name, remaining, expected, ord), final
  ), checked AS (
    SELECT array_agg(revision_before ORDER BY ord) AS revisions_before,
           min(ord) FILTER (WHERE NOT CASE expected
             WHEN 'any' THEN true
             WHEN 'no_stream' THEN revision_before = -1
             WHEN 'stream_exists' THEN revision_before >= 0
             ELSE revision_before = expected::bigint
           END) AS first_conflict
    FROM writes
  ), appended AS (
    INSERT INTO events (id, stream_name, revision, type, schema_version, data, metadata, transaction_sequence)
    SELECT id, stream_name, revision, type, schema_version, data, metadata, nextval('event_transaction_sequence')
    FROM (
      SELECT e.id, e.stream_name, (SELECT revisions_before FROM checked)[e.write] + 1 + e.index AS revision,
             e.type, e.schema_version, e.data, e.metadata
      FROM ROWS FROM (
        unnest(?::uuid[]), unnest(?::text[]), unnest(?::integer[]), unnest(?::integer[]), unnest(?::text[]), unnest(?::integer[]),
        json_array_elements(?::json), json_array_elements(?::json)
      ) WITH ORDINALITY AS e(id, stream_name, write, index, type, schema_version, data, metadata, ord)
      WHERE (SELECT first_conflict IS NULL FROM checked)
      ORDER BY e.ord
    ) AS ordered
    RETURNING transaction_sequence
  )
  SELECT pg_current_xact_id()::text AS transaction_id, revisions_before,
         CASE WHEN first_conflict IS NULL THEN NULL ELSE event_append_conflict(first_conflict::integer, revisions_before) END AS first_conflict,
         (SELECT coalesce(array_agg(transaction_sequence::text ORDER BY transaction_sequence), '{}') FROM appended) AS sequences
  FROM checked`;

/** SQLSTATE of the error appendStatement raises when an expected version does not hold (migration 0007). */
export const appendConflictCode = 'ES409';

/** What the ES409 error's detail holds. */
export interface AppendConflict {
  /** 1-based number of the first write whose expected version does not hold. */
  first_conflict: number;
  /** Per write, in order: its stream's revision before it. */
  revisions_before: number[];
}

/** What appendStatement answers, in one row. */
export interface AppendRow {
  transaction_id: string;
  /** Per write, in order: its stream's revision before it (bigint[]: strings). */
  revisions_before: string[];
  /** Always null: a conflict raises ES409 instead (AppendConflict). */
  first_conflict: null;
  /** Sequence numbers of the inserted events, ascending; empty when none was inserted. */
  sequences: string[];
}

/**
 * A PostgreSQL array literal of `values`, built here in one pass: node-postgres's own conversion of a JS array
 * escaped and concatenated it element by element, and knex scanned every element first; for a flash-sale batch
 * that was a third of the append's allocations. Text is always quoted, with `"` and `\` escaped (PostgreSQL's
 * array input syntax), so any string stays as it is (empty, NULL, commas, braces, spaces).
 */
export function arrayLiteral(values: readonly (string | number)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    parts[i] =
      typeof value === 'number' ? String(value) : `"${/["\\]/.test(value) ? value.replace(/["\\]/g, '\\$&') : value}"`;
  }
  return `{${parts.join(',')}}`;
}

/** appendStatement's parameters for a batch of writes: arrays as PostgreSQL literals (arrayLiteral). */
export function appendParameters(writes: StreamWrite[]): Knex.RawBinding[] {
  const added = new Map<string, number>();
  for (const { streamName, events } of writes) added.set(streamName, (added.get(streamName) ?? 0) + events.length);
  const streamNames = [...added.keys()].sort();

  // Per write: how many events the batch appends to its stream from it on, this write's included.
  const remaining = new Map(added);
  const writeRemaining: number[] = [];
  const ids: string[] = [];
  const eventStreams: string[] = [];
  const eventWrites: number[] = [];
  const eventIndexes: number[] = [];
  const types: string[] = [];
  const schemaVersions: number[] = [];
  const data: unknown[] = [];
  const metadata: unknown[] = [];
  writes.forEach(({ streamName, events }, w) => {
    writeRemaining.push(remaining.get(streamName)!);
    remaining.set(streamName, remaining.get(streamName)! - events.length);
    events.forEach((event, i) => {
      ids.push(event.id.toLowerCase());
      eventStreams.push(streamName);
      eventWrites.push(w + 1);
      eventIndexes.push(i);
      types.push(event.type);
      schemaVersions.push(event.schemaVersion ?? 1);
      data.push(event.data ?? null);
      metadata.push(event.metadata);
    });
  });
  return [
    arrayLiteral(streamNames),
    arrayLiteral(streamNames.map((name) => added.get(name)!)),
    arrayLiteral(writes.map((w) => w.streamName)),
    arrayLiteral(writeRemaining),
    arrayLiteral(writes.map((w) => String(w.expectedVersion))),
    arrayLiteral(ids),
    arrayLiteral(eventStreams),
    arrayLiteral(eventWrites),
    arrayLiteral(eventIndexes),
    arrayLiteral(types),
    arrayLiteral(schemaVersions),
    JSON.stringify(data),
    JSON.stringify(metadata),
  ];
}
