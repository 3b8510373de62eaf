import type { Knex } from 'knex';
import { formatPosition } from '../../infrastructure/shared/eventstore/positions.js';

/**
 * Resolves once every projector's checkpoint (at least `projectorCount` of them) is at or past the last event stored
 * now, so a read after it sees all earlier commands (a test), or a measured round does not compete with the setup's
 * backlog (a benchmark); gives up after `timeoutMs`.
 */
export async function checkpointsCaughtUp(knex: Knex, projectorCount = 1, timeoutMs = 30_000): Promise<void> {
  const head = await knex('events')
    .orderBy([
      { column: 'transaction_id', order: 'desc' },
      { column: 'transaction_sequence', order: 'desc' },
    ])
    .first<{ transaction_id: string; transaction_sequence: string } | undefined>(
      knex.raw('transaction_id::text AS transaction_id'),
      knex.raw('transaction_sequence::text AS transaction_sequence'),
    );
  if (!head) return;
  const target = formatPosition(head.transaction_id, head.transaction_sequence);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows: { position: string | null }[] = await knex('projection_checkpoints').select('position');
    if (rows.length >= projectorCount && rows.every((r) => r.position !== null && r.position >= target)) return;
    if (Date.now() > deadline) throw new Error(`projections not caught up with ${target} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
