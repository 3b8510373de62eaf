/**
 * The ports of the files context (docs/files.md, "Storage"): where uploaded bytes are kept and how a file's type is
 * told from its first bytes. infrastructure/files implements them (a directory under DATA_DIR; file-type).
 */
import type { Readable, Writable } from 'node:stream';

/** Bytes being written: nothing a reader can see until commit. */
export interface PendingObject {
  /** Where the bytes go (backpressure honoured: a pipeline into it holds no more than its buffer). */
  readonly writable: Writable;
  /**
   * Makes the written bytes durable and readable under `key` (the writable must have finished). After commit the
   * object is the storage's; discard no longer applies.
   */
  commit(key: string): Promise<void>;
  /** Throws the bytes away (whatever state the writable is in); idempotent; a no-op after commit. */
  discard(): Promise<void>;
}

export interface StoredObject {
  size: number;
  /** The bytes; created by open, so the caller must consume or destroy it. */
  stream: Readable;
}

export interface FileStorage {
  /** Starts a new object in a temporary place. */
  begin(): Promise<PendingObject>;
  /** The object under `key`; undefined when there is none. */
  open(key: string): Promise<StoredObject | undefined>;
  /** Removes the object under `key` (none: nothing happens). */
  remove(key: string): Promise<void>;
  /** A fresh key for a new file's bytes. */
  keyFor(fileId: string): string;
}

/** Tells a media type from a file's first bytes (never from its name or a declared type). */
export interface ContentTypeDetector {
  /** How many first bytes it wants (fewer when the file is shorter). */
  readonly sampleBytes: number;
  /** The media type the bytes start, e.g. `image/png`; undefined when unknown. */
  detect(head: Uint8Array): Promise<string | undefined>;
}
