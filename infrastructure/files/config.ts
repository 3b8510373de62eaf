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
  /** Prefix of the `url` an upload answers (e.g. the gateway's external address); unset: a path on this service. */
  FILES_PUBLIC_BASE_URL: z
    .string()
    .url()
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
};

export type FilesConfig = z.infer<z.ZodObject<typeof filesConfig>>;
