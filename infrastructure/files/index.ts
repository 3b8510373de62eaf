/**
 * The files context's module, infrastructure half: its configuration slice, its secrets (none) and how its services
 * are built from the shared adapters: the local file storage under FILES_DIR (default <DATA_DIR>/files), the
 * file-type detector and an hourly sweep of temporary files a crash left behind. The only file of
 * infrastructure/files the composition root imports (docs/conventions.md, "Modules").
 */
import path from 'node:path';
import { FileDownloads, FileUploads, type FilesServices } from '../../application/files/index.js';
import { repeatingJob, type BuiltContext, type ContextDeps } from '../shared/context.js';
import type { FilesConfig } from './config.js';
import { fileTypeDetector } from './file-type-detector.js';
import { LocalFileStorage } from './local-file-storage.js';

export { filesConfig, type FilesConfig } from './config.js';
export { filesSecrets, type FilesSecrets } from './secrets.js';
export { LocalFileStorage } from './local-file-storage.js';

const maxFieldNameBytes = 100;
/** Room for one part's boundary and headers (busboy refuses a part header past 16 KiB anyway). */
const partOverheadBytes = 16 * 1024;

/** A temporary file older than this belongs to no upload still running. */
const staleTemporaryMs = 6 * 60 * 60 * 1000;

/** Where the files live: FILES_DIR, else <DATA_DIR>/files. */
export const filesDirOf = (config: Pick<ContextDeps<FilesConfig>['config'], 'FILES_DIR' | 'DATA_DIR'>) =>
  path.resolve(config.FILES_DIR ?? path.join(config.DATA_DIR, 'files'));

export async function buildFiles(
  deps: Pick<ContextDeps<FilesConfig>, 'config' | 'store' | 'clock' | 'logger' | 'accessTokens'>,
): Promise<BuiltContext<FilesServices>> {
  const { config, store, clock, logger, accessTokens } = deps;
  const storage = new LocalFileStorage(filesDirOf(config));
  await storage.init();
  const uploads = new FileUploads({
    store,
    clock,
    storage,
    detector: fileTypeDetector,
    limits: {
      image: config.FILES_MAX_IMAGE_BYTES,
      audio: config.FILES_MAX_AUDIO_BYTES,
      video: config.FILES_MAX_VIDEO_BYTES,
    },
    quota: { files: config.FILES_QUOTA_FILES_PER_DAY, bytes: config.FILES_QUOTA_BYTES_PER_DAY },
    logger,
  });
  return {
    services: {
      uploads,
      downloads: new FileDownloads({ store, storage }),
      formLimits: {
        maxFields: config.FILES_MAX_FIELDS,
        maxFieldBytes: config.FILES_MAX_FIELD_BYTES,
        maxFieldNameBytes,
        maxBodyBytes:
          Math.max(config.FILES_MAX_IMAGE_BYTES, config.FILES_MAX_AUDIO_BYTES, config.FILES_MAX_VIDEO_BYTES) +
          (config.FILES_MAX_FIELDS + 2) * (config.FILES_MAX_FIELD_BYTES + partOverheadBytes),
      },
      accessTokens,
      publicBaseUrl: config.FILES_PUBLIC_BASE_URL ?? '',
    },
    jobs: [
      repeatingJob({
        name: 'files-temporary-sweep',
        role: 'api',
        intervalMs: 60 * 60 * 1000,
        logger,
        work: async () => {
          const removed = await storage.sweepTemporary(staleTemporaryMs);
          if (removed) logger.info('removed temporary upload files left behind', { removed });
        },
      }),
    ],
    stop: async () => {},
  };
}
