/**
 * The files context's read models: its projectors and their tables. Import this file from outside projections/files
 * (docs/conventions.md, "Modules").
 */
export * from './uploaded-files.js';

import { uploadedFilesProjector } from './uploaded-files.js';

/** The files context's projectors, in the order the runner starts them. */
export const filesProjectors = [uploadedFilesProjector] as const;
