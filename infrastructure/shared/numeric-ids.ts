import type { Knex } from 'knex';
import type { NumericIdGenerator } from '../../application/shared/ids.js';

/** Numeric ids from the id_sequences table; one round trip hands out a whole block. */
export class PostgresNumericIds implements NumericIdGenerator {
  constructor(private readonly knex: Knex) {}

  async next(sequence: string, count = 1): Promise<number[]> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    const { rows } = await this.knex.raw<{ rows: { last_value: number }[] }>(
      `INSERT INTO id_sequences (name, last_value) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET last_value = id_sequences.last_value + EXCLUDED.last_value
       RETURNING last_value`,
      [sequence, count],
    );
    const last = Number(rows[0]!.last_value);
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  }
}
