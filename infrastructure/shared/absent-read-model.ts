/**
 * A read model that is not there: a context's command side alone (context-module.ts, `commandSide`) gives it to the
 * services that query one, so that they build without a database and every query throws (its route answers 500).
 * The fast in-memory harness serves such command sides (tests/support/fast-app.ts; docs/testing.md).
 */
export function absentReadModel<T extends object>(what: string): T {
  const refuse = () => {
    throw new Error(`${what}: no read model on the command side alone (the fast harness has no database)`);
  };
  // Only method names answer; `then` stays undefined so that the object is never taken for a promise.
  return new Proxy({} as T, { get: (_, key) => (typeof key === 'symbol' || key === 'then' ? undefined : refuse) });
}
