import type { NumericIdGenerator } from '../../application/shared/ids.js';

/**
 * Numeric ids in memory, for fast tests: each sequence counts from 1 as PostgresNumericIds' id_sequences row does,
 * or on from the last value `lastValues` gives it (say, past the ids a test's given events already use).
 */
export class InMemoryNumericIds implements NumericIdGenerator {
  private readonly last = new Map<string, number>();

  constructor(lastValues: Record<string, number> = {}) {
    for (const [sequence, value] of Object.entries(lastValues)) {
      if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`invalid last value of ${sequence}`);
      this.last.set(sequence, value);
    }
  }

  async next(sequence: string, count = 1): Promise<number[]> {
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    const last = (this.last.get(sequence) ?? 0) + count;
    this.last.set(sequence, last);
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  }
}
