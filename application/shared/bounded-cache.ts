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
  /**
   * Walks the Map from its oldest entry, each entry it passes forgotten: its next is the oldest entry left. (A fresh
   * keys().next() per eviction walks every deleted slot before the oldest live one, up to the Map's size each time.)
   */
  private oldest = this.entries.keys();
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
    if (this.entries.size > this.limit) this.entries.delete(this.oldest.next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.oldest = this.entries.keys();
  }

  get size(): number {
    return this.entries.size;
  }
}
