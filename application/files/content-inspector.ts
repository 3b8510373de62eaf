/**
 * Inspects a file's bytes while they stream to storage (docs/files.md, "Types and limits"): counts and hashes them,
 * tells their type from the first bytes, and fails the stream as soon as the type is not allowed or the size passes
 * the limit, so a refused file is never read to its end.
 */
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { filesError, kindOf, type FileKind } from '../../domain/files/index.js';
import type { ContentTypeDetector } from './ports.js';

export type SizeLimits = Readonly<Record<FileKind, number>>;

/** What the inspector found once the stream ended. */
export interface Inspected {
  mime: string;
  kind: FileKind;
  size: number;
  sha256: string;
}

export class ContentInspector extends Transform {
  private readonly hash = createHash('sha256');
  private size = 0;
  /** The first bytes, until the type is decided. */
  private head: Buffer[] = [];
  private headBytes = 0;
  private found?: { mime: string; kind: FileKind; limit: number };
  private sha256?: string;
  /** Before the kind is known, no file may be larger than the largest limit. */
  private readonly ceiling: number;

  constructor(
    private readonly detector: ContentTypeDetector,
    private readonly limits: SizeLimits,
  ) {
    super();
    this.ceiling = Math.max(...Object.values(limits));
  }

  /** The result; only once the stream has ended. */
  get result(): Inspected {
    if (!this.found || this.sha256 === undefined) throw new Error('the inspector has not seen the whole file');
    return { mime: this.found.mime, kind: this.found.kind, size: this.size, sha256: this.sha256 };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    const limit = this.found?.limit ?? this.ceiling;
    if (this.size > limit) return done(this.tooLarge(limit));
    this.hash.update(chunk);
    if (this.found) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < this.detector.sampleBytes) return done();
    this.decide().then(() => done(null, this.flushHead()), done);
  }

  override _flush(done: TransformCallback): void {
    const finish = (rest?: Buffer) => {
      this.sha256 = this.hash.digest('hex');
      done(null, rest);
    };
    if (this.found) return finish();
    this.decide().then(() => finish(this.flushHead()), done);
  }

  /** Detects the type from the first bytes; throws when it is not an allowed kind or the size passed its limit. */
  private async decide(): Promise<void> {
    const head = Buffer.concat(this.head, this.headBytes);
    const mime = await this.detector.detect(head.subarray(0, this.detector.sampleBytes));
    const kind = kindOf(mime);
    if (!mime || !kind)
      throw filesError(
        'FILE_TYPE_NOT_ALLOWED',
        mime
          ? `the file's content is ${mime}: only images, audio and video are accepted`
          : "the file's content is not a known image, audio or video format",
        { detected: mime ?? null },
      );
    const limit = this.limits[kind];
    this.found = { mime, kind, limit };
    if (this.size > limit) throw this.tooLarge(limit);
  }

  private flushHead(): Buffer {
    const head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    return head;
  }

  private tooLarge(limit: number) {
    const what = this.found ? `${this.found.kind} files` : 'files';
    return filesError('FILE_TOO_LARGE', `the file is larger than ${limit} bytes, the limit for ${what}`, {
      limit,
      kind: this.found?.kind ?? null,
    });
  }
}
