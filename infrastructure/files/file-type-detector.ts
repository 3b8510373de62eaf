/**
 * The content-type detector (application/files/ports.ts) on file-type, which reads magic numbers (docs/files.md,
 * "Types and limits"). It looks at the first 64 KiB: enough for every format file-type knows that is told by its
 * start, and for an ID3 tag to be skipped to the MPEG frame after it.
 */
import { fileTypeFromBuffer } from 'file-type';
import type { ContentTypeDetector } from '../../application/files/index.js';

export const fileTypeDetector: ContentTypeDetector = {
  sampleBytes: 64 * 1024,
  async detect(head) {
    return (await fileTypeFromBuffer(head))?.mime;
  },
};
