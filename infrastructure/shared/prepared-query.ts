import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Runs a read (or any one statement) as a named prepared statement.
 *
 * A hot read (a voucher by id, a page of a listing) costs PostgreSQL far
 * more to plan than to run: measured here, 0.48 ms per call through the
 * simple path against 0.06 ms prepared. node-postgres prepares a named
 * statement once per connection and then only binds and executes it;
 * PostgreSQL keeps its plan (custom plans first, then a generic one when that
 * is no worse). Plans are re-checked when a table or view they read is
 * replaced (a projection rebuild swaps its views); should the new one give a
 * column another type, the statement is prepared again under a new name.
 *
 * `text` uses `?` placeholders, as knex.raw does (no `?` elsewhere in it, no
 * `??` identifiers). A list bound as one array (`= ANY(?::bigint[])`) makes
 * one statement for every length, but PostgreSQL then never settles on a
 * generic plan (it cannot tell the array's length) and plans every call;
 * where that matters, bind the items as scalars (one statement per count).
 */

/** Statement names by SQL text: a hash of the text, and the generation. */
const names = new Map<string, string>();
/** Bumped when a prepared statement's result type changed under it: every statement is prepared afresh. */
let generation = 0;

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `r${generation}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** PostgreSQL refused a prepared statement whose result columns changed type under it (a view or table replaced). */
const resultTypeChanged = (error: unknown) =>
  (error as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message);

/**
 * Through knex.raw with a statement name (node-postgres prepares it on the connection the first time), so the query
 * runs where knex runs it (the pool, or the transaction the knex instance is) and shows in knex's query events.
 */
export async function preparedRows<Row>(knex: Knex, text: string, values: readonly unknown[]): Promise<Row[]> {
  try {
    return (await runNamed<Row>(knex, text, values)).rows;
  } catch (error) {
    if (!resultTypeChanged(error)) throw error;
    generation++;
    names.clear();
    return (await runNamed<Row>(knex, text, values)).rows;
  }
}

// At module level, not a closure per query: under tsx (esbuild's keepNames) each named closure costs a defineProperty.
const runNamed = <Row>(knex: Knex, text: string, values: readonly unknown[]) =>
  knex.raw<{ rows: Row[] }>(text, values as Knex.RawBinding[]).options({ name: nameOf(text) });

/** A knex query builder's read as a named prepared statement (preparedRows): its SQL text names the statement. */
export function preparedBuilderRows<Row>(knex: Knex, builder: Knex.QueryBuilder): Promise<Row[]> {
  const { sql, bindings } = builder.toSQL();
  return preparedRows<Row>(knex, sql, bindings);
}
