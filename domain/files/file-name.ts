/**
 * The name a client gave its file, made safe to keep and to send back in a Content-Disposition (docs/files.md,
 * "Stored metadata"): it is only ever a label, never a path or a type.
 */

/** At most this many characters are kept. */
export const maxFileNameLength = 255;

/**
 * The last path segment, Unicode NFC, without control characters, bidirectional controls or quotes, trimmed, at
 * most 255 characters; null when nothing is left (or the name is `.`/`..`).
 */
export function sanitiseFileName(name: string | undefined | null): string | null {
  if (!name) return null;
  const last = name.split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f"]/g, '')
    // Line separators, and the bidirectional controls that make `exe.png` read as `png.exe`.
    .replace(/[\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  const kept = Array.from(cleaned).slice(0, maxFileNameLength).join('');
  return kept === '' || kept === '.' || kept === '..' ? null : kept;
}
