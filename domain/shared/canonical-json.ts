/**
 * JSON with every object's keys sorted: the same text for the same content whatever order its keys came in (request
 * hashes, webhook fingerprints, equality of stored payloads). Hashes of it are stored (idempotency records), so its
 * text must never change: keys that are array indices ("0", "17") come first in numeric order, as JavaScript orders
 * the rebuilt objects' keys, then the others sorted as strings.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
