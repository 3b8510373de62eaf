/** Numeric ids for resources the spec calls "number" (pool ids, issued voucher ids...). */
export interface NumericIdGenerator {
  /** `count` fresh, unique, increasing ids of the named sequence. */
  next(sequence: string, count?: number): Promise<number[]>;
}
