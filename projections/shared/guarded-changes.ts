/**
 * Set-based form of a run of changes to rows that keep the position of the
 * last event applied to them (`last_position`, collation C) and ignore an
 * event at or before it.
 *
 * Returns the CTEs `input`, `applied` and `latest` of a statement (bindings:
 * the changes as a JSON array, then the table). Each change is an object with
 * `ordinal` (its place in the run), the key column, `position` (the event's)
 * and the `columns` it sets. `applied` holds the changes that applying them
 * one by one, in order, would apply: past the row's last_position and past
 * every earlier change of the same row in the run (a redelivered one is not);
 * `latest` the last applied change of each row, which leaves the row as
 * applying them one by one does. A change to a row that does not exist
 * applies nowhere.
 */
export function guardedChanges(
  table: { key: string; keyType: string },
  columns: Readonly<Record<string, string>>,
): string {
  const { key, keyType } = table;
  const definitions = Object.entries({ ordinal: 'int', [key]: keyType, position: 'text COLLATE "C"', ...columns })
    .map(([column, type]) => `${column} ${type}`)
    .join(', ');
  return `input AS (SELECT * FROM json_to_recordset(?::json) AS r(${definitions})),
  applied AS (
    SELECT i.* FROM (
      SELECT r.*, max(r.position) OVER (PARTITION BY r.${key} ORDER BY r.ordinal ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS passed FROM input r
    ) i JOIN ?? t ON t.${key} = i.${key}
    WHERE i.position > t.last_position AND (i.passed IS NULL OR i.position > i.passed)
  ),
  latest AS (SELECT DISTINCT ON (${key}) * FROM applied ORDER BY ${key}, position DESC)`;
}
