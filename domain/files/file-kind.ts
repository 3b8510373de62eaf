/**
 * What kinds of file the service stores (docs/files.md, "Types and limits"): images, audio and video, told by the
 * media type detected from the file's content. Anything else is refused.
 */

export const fileKinds = ['image', 'audio', 'video'] as const;
export type FileKind = (typeof fileKinds)[number];

/** The kind of a detected media type; undefined: not a kind the service stores. */
export function kindOf(mime: string | undefined): FileKind | undefined {
  const top = mime?.split('/', 1)[0];
  return fileKinds.find((k) => k === top);
}
