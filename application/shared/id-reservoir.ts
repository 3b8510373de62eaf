import type { NumericIdGenerator } from './ids.js';

/**
 * Ids of one sequence taken from the generator in blocks ahead of need: the
 * purchase loop takes its batch's voucher ids from memory and a refill runs
 * in the background, instead of one database round trip per batch. Ids stay
 * unique and increase within a process; those left at a restart are skipped.
 */
export class IdReservoir {
  private readonly ids: number[] = [];
  private refill: Promise<void> | undefined;

  constructor(
    private readonly generator: NumericIdGenerator,
    private readonly sequence: string,
    private readonly blockSize = 1000,
  ) {}

  /** `count` ids; waits for the database only when the reservoir runs dry. Call one at a time. */
  async take(count: number): Promise<number[]> {
    if (this.ids.length < count) {
      await this.refill;
      if (this.ids.length < count)
        this.ids.push(...(await this.generator.next(this.sequence, Math.max(count - this.ids.length, this.blockSize))));
    }
    const taken = this.ids.splice(0, count);
    if (!this.refill && this.ids.length < this.blockSize / 2) {
      // A failed refill is not reported here: the next take that needs ids asks the generator itself.
      this.refill = this.generator
        .next(this.sequence, this.blockSize)
        .then(
          (ids) => void this.ids.push(...ids),
          () => undefined,
        )
        .finally(() => (this.refill = undefined));
    }
    return taken;
  }
}
