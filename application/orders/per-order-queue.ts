/**
 * One command at a time per order within a process (docs/orders-ordering.md, "Concurrency"): webhooks of one order arriving
 * together would otherwise collide on the stream's expected version and spend the command handler's retries. Across
 * processes the handler's bounded retry on a version conflict still decides who goes first.
 */
export class PerKeyQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier work of `key` settled; the map holds only keys with work pending. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work pending (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
