/**
 * Uploads (docs/files.md, "Upload"): the parts of one multipart form, its one file streamed through the content
 * inspector into a pending storage object, then committed and recorded (FileUploaded, through the write engine).
 * Whatever refuses the call on the way (a second file, a type not allowed, a size past the limit, a broken or aborted
 * body, a failed append) leaves nothing behind: the pending object is discarded, a committed one removed.
 */
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import {
  assertQuotaLeft,
  filesError,
  quotaDayOf,
  sanitiseFileName,
  type FileCommand,
  type FileOwner,
  type UploadQuota,
} from '../../domain/files/index.js';
import type { Clock } from '../shared/clock.js';
import { followUpContext, type CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { Logger } from '../shared/logger.js';
import { filesAggregates } from './aggregates.js';
import { ContentInspector, type Inspected, type SizeLimits } from './content-inspector.js';
import { fileView, type FileView } from './file-view.js';
import type { ContentTypeDetector, FileStorage, PendingObject } from './ports.js';
import type { UploadPart } from './upload-part.js';

/** The file part, read to its end and held in a pending object. */
interface Received {
  pending: PendingObject;
  inspected: Inspected;
  fieldName: string;
  fileName: string | undefined;
}

export class FileUploads {
  private readonly aggregates;

  constructor(
    private readonly deps: {
      store: EventStore;
      clock: Clock;
      storage: FileStorage;
      detector: ContentTypeDetector;
      limits: SizeLimits;
      /** Each user's uploads per UTC day (docs/files.md, "Quota"). */
      quota: UploadQuota;
      logger: Logger;
    },
  ) {
    this.aggregates = filesAggregates(deps);
  }

  /** The size limit of each kind, in bytes. */
  get limits(): SizeLimits {
    return this.deps.limits;
  }

  /**
   * Reads the form's parts in order: its fields, and exactly one file, which is stored for `owner`. Refusals are
   * FilesErrors; an error the parts raise (a malformed or aborted body) is thrown as it is, after the clean-up.
   */
  async upload(context: CommandContext, owner: FileOwner, parts: AsyncIterable<UploadPart>): Promise<FileView> {
    // A user whose quota is spent is refused before a byte of the file is read (the body is then drained).
    const { state: used } = await this.quotaOf(owner);
    assertQuotaLeft(used, this.deps.quota, this.deps.clock.now().toISOString());
    const fields = new Map<string, string>();
    let received: Received | undefined;
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (fields.has(part.name))
            throw filesError('FORM_FIELD_REPEATED', `form field ${part.name} is given twice`, { field: part.name });
          fields.set(part.name, part.value);
        } else if (received) {
          part.stream.resume();
          throw filesError('TOO_MANY_FILES', 'one file per call: the form holds a second file part', {
            field: part.fieldName,
          });
        } else {
          received = await this.receive(part);
        }
      }
    } catch (error) {
      await received?.pending.discard();
      throw error;
    }
    if (!received) throw filesError('FILE_MISSING', 'the form holds no file part');
    return this.record(context, owner, received, Object.fromEntries(fields));
  }

  /** Streams the file part into a pending object, inspected on the way; on any failure the object is discarded. */
  private async receive(part: Extract<UploadPart, { type: 'file' }>): Promise<Received> {
    const pending = await this.deps.storage.begin().catch((error: unknown) => {
      part.stream.resume();
      throw error;
    });
    const inspector = new ContentInspector(this.deps.detector, this.deps.limits);
    try {
      await pipeline(part.stream, inspector, pending.writable);
    } catch (error) {
      await pending.discard();
      throw error;
    }
    return { pending, inspected: inspector.result, fieldName: part.fieldName, fileName: part.fileName };
  }

  /** Commits the bytes, then records the file; an append that fails removes the committed bytes again. */
  private async record(
    context: CommandContext,
    owner: FileOwner,
    received: Received,
    formFields: Record<string, string>,
  ): Promise<FileView> {
    const { storage } = this.deps;
    const fileId = randomUUID();
    const storageKey = storage.keyFor(fileId);
    try {
      // Counted before its bytes are kept: a file the quota has no room for is discarded. An append that fails after
      // this has spent the unit (rare; the user's next day is whole again).
      await this.count(followUpContext(context, 'upload-quota'), owner, fileId, received.inspected.size);
    } catch (error) {
      await received.pending.discard();
      throw error;
    }
    try {
      await received.pending.commit(storageKey);
    } catch (error) {
      await received.pending.discard();
      throw error;
    }
    try {
      const { state } = await this.aggregates.file.handle(context, fileId, (now): FileCommand => ({
        type: 'RecordUpload',
        now,
        file: {
          fileId,
          owner: { userId: owner.userId, miniAppId: owner.miniAppId },
          ...received.inspected,
          storageKey,
          fieldName: received.fieldName,
          originalName: sanitiseFileName(received.fileName),
          formFields,
        },
      }));
      return fileView(state);
    } catch (error) {
      await storage.remove(storageKey).catch((removal: unknown) =>
        // The bytes stay without an event: an orphan an operator can find (docs/files.md, "Storage").
        this.deps.logger.error('an unrecorded upload could not be removed', { storageKey, err: removal }),
      );
      throw error;
    }
  }

  /** The owner's quota of today, as its stream says. */
  private quotaOf(owner: FileOwner) {
    return this.aggregates.uploadQuota.load({ owner, day: quotaDayOf(this.deps.clock.now().toISOString()) });
  }

  /** Counts an upload of `size` bytes against the owner's quota of the day, or refuses it (UPLOAD_QUOTA_EXCEEDED). */
  private async count(context: CommandContext, owner: FileOwner, fileId: string, size: number): Promise<void> {
    const { clock, quota } = this.deps;
    // The stream is named from the clock here and the decision's `now` comes from the same clock: at midnight the two
    // can straddle the day, which only counts that one upload to the day before.
    const day = quotaDayOf(clock.now().toISOString());
    await this.aggregates.uploadQuota.handle(context, { owner, day }, (now) => ({
      type: 'CountUpload' as const,
      fileId,
      size,
      quota,
      now,
    }));
  }
}
