/**
 * A Map that forgets its least recently used entries beyond `limit`, nearly:
 * a read moves an entry to the young end only once it has aged into the
 * older half (more than limit / 2 insertions and moves since it last moved).
 * Moving costs a delete and an insert in the Map, several times a plain read,
 * and a cache of voucher parts is read a hundred times per answer; so an
 * entry read at least once per limit / 2 insertions is never forgotten, and
 * most reads cost one lookup.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; moved: number }>();
  /** Insertions and moves so far: entries are in the Map in the order of their `moved`. */
  private moves = 0;

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.moves - entry.moved > this.limit / 2) {
      this.entries.delete(key);
      entry.moved = ++this.moves;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, moved: ++this.moves });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
