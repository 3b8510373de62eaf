/** The files context's settings: its slice of the service's configuration (README, "Configuration"; docs/files.md). */
import { z } from 'zod';

const bytes = (fallback: number) => z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(fallback);
const MiB = 1024 * 1024;

export const filesConfig = {
  /** Where uploaded files are kept (objects/ and tmp/ under it); unset: <DATA_DIR>/files. */
  FILES_DIR: z.string().min(1).optional(),
  /** Largest image, audio and video file, in bytes (the kind is told from the content). */
  FILES_MAX_IMAGE_BYTES: bytes(10 * MiB),
  FILES_MAX_AUDIO_BYTES: bytes(20 * MiB),
  FILES_MAX_VIDEO_BYTES: bytes(100 * MiB),
  /** Form fields besides the file, and the bytes of one field's value. */
  FILES_MAX_FIELDS: z.coerce.number().int().min(0).max(1000).default(20),
  FILES_MAX_FIELD_BYTES: z.coerce.number().int().min(1).max(MiB).default(4096),
  /**
   * Each user's uploads per UTC day, in files and in bytes (docs/files.md, "Quota"): 200 files and 1 GiB, far above a
   * person's photos, voice notes and clips of a day (ten videos at the 100 MiB limit), far below a script filling the
   * disk. Past either: 429 4291 until midnight UTC.
   */
  FILES_QUOTA_FILES_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(200),
  FILES_QUOTA_BYTES_PER_DAY: bytes(1024 * MiB),
  /** Prefix of the `url` an upload answers (e.g. the gateway's external address); unset: a path on this service. */
  FILES_PUBLIC_BASE_URL: z
    .string()
    .url()
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
};

export type FilesConfig = z.infer<z.ZodObject<typeof filesConfig>>;
