/**
 * An immutable string-keyed map whose updates copy only one short path: a
 * hash trie of fixed depth (three levels of 32 branches) with small leaf
 * lists. A pool's state keeps one entry per buyer; with this map every new
 * version of that state shares nearly all of it with the previous one, so
 * deciding against a tentative state and dropping it costs next to nothing.
 */
const bits = 5;
const width = 1 << bits;
const depth = 3;

type Leaf<V> = readonly (readonly [string, V])[];
type Branch<V> = readonly (Branch<V> | Leaf<V> | undefined)[];

function hash(key: string): number {
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function slot(h: number, level: number): number {
  return (h >>> (level * bits)) & (width - 1);
}

export class PersistentMap<V> {
  private static readonly emptyMap = new PersistentMap<never>(undefined, 0);

  private constructor(
    private readonly root: Branch<V> | undefined,
    readonly size: number,
  ) {}

  static empty<V>(): PersistentMap<V> {
    return PersistentMap.emptyMap as PersistentMap<V>;
  }

  get(key: string): V | undefined {
    const h = hash(key);
    let node: Branch<V> | Leaf<V> | undefined = this.root;
    for (let level = 0; level < depth && node; level++) node = (node as Branch<V>)[slot(h, level)];
    return (node as Leaf<V> | undefined)?.find(([k]) => k === key)?.[1];
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** A map with `key` set to `value` (undefined values are not stored: use delete). */
  set(key: string, value: V): PersistentMap<V> {
    const h = hash(key);
    let added = false;
    const root = update(this.root, 0, h, (leaf) => {
      const at = leaf ? leaf.findIndex(([k]) => k === key) : -1;
      if (at < 0) {
        added = true;
        return [...(leaf ?? []), [key, value] as const];
      }
      const copy = leaf!.slice();
      copy[at] = [key, value];
      return copy;
    });
    return new PersistentMap(root, this.size + (added ? 1 : 0));
  }

  delete(key: string): PersistentMap<V> {
    if (!this.has(key)) return this;
    const root = update(this.root, 0, hash(key), (leaf) => {
      const rest = leaf!.filter(([k]) => k !== key);
      return rest.length ? rest : undefined;
    });
    return new PersistentMap(root, this.size - 1);
  }

  *entries(): IterableIterator<[string, V]> {
    yield* walk<V>(this.root, 0);
  }
}

function update<V>(
  node: Branch<V> | undefined,
  level: number,
  h: number,
  change: (leaf: Leaf<V> | undefined) => Leaf<V> | undefined,
): Branch<V> {
  const copy = node ? node.slice() : new Array<Branch<V> | Leaf<V> | undefined>(width);
  const i = slot(h, level);
  copy[i] =
    level === depth - 1
      ? change(copy[i] as Leaf<V> | undefined)
      : update(copy[i] as Branch<V> | undefined, level + 1, h, change);
  return copy;
}

function* walk<V>(node: Branch<V> | Leaf<V> | undefined, level: number): IterableIterator<[string, V]> {
  if (!node) return;
  if (level === depth) {
    for (const [k, v] of node as Leaf<V>) yield [k, v];
    return;
  }
  for (const child of node as Branch<V>) yield* walk(child, level + 1);
}
