import type { Knex } from 'knex';
import { formatPosition } from '../../infrastructure/shared/eventstore/positions.js';

/**
 * Resolves once every projector's checkpoint (at least `projectorCount` of them) is at or past the last event stored
 * now that it applies (`eventTypes`, Container.projectorEventTypes; one it does not name must pass the last event of
 * all), so a read after it sees all earlier commands (a test), or a measured round does not compete with the setup's
 * backlog (a benchmark); gives up after `timeoutMs`. Not the log's head for every projector: a projector given only
 * its context's events (NATS_FILTER_BY_CONTEXT) stops at its context's last event (docs/projections.md, "Buses").
 */
export async function checkpointsCaughtUp(
  knex: Knex,
  eventTypes: ReadonlyMap<string, ReadonlySet<string>>,
  projectorCount = 1,
  timeoutMs = 30_000,
): Promise<void> {
  // The last event of each type, once: what is stored now.
  const lasts = (
    await knex.raw<{ rows: { type: string; transaction_id: string; transaction_sequence: string }[] }>(
      `SELECT DISTINCT ON (type) type, transaction_id::text AS transaction_id,
              transaction_sequence::text AS transaction_sequence
       FROM events ORDER BY type, transaction_id DESC, transaction_sequence DESC`,
    )
  ).rows.map((r) => ({ type: r.type, position: formatPosition(r.transaction_id, r.transaction_sequence) }));
  if (lasts.length === 0) return;
  const lastOf = (types: ReadonlySet<string> | undefined): string | null =>
    lasts.reduce<string | null>(
      (last, e) => ((!types || types.has(e.type)) && (last === null || e.position > last) ? e.position : last),
      null,
    );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows: { projector: string; position: string | null }[] = await knex('projection_checkpoints').select(
      'projector',
      'position',
    );
    const behind = rows.filter((r) => {
      const target = lastOf(eventTypes.get(r.projector));
      return target !== null && (r.position === null || r.position < target);
    });
    if (rows.length >= projectorCount && behind.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `projections not caught up in ${timeoutMs} ms: ${behind.map((r) => `${r.projector} at ${r.position}`).join(', ') || `${rows.length} of ${projectorCount} projectors`}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
