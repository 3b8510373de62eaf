/**
 * The example context's infrastructure (docs/conventions.md, "Adding a context", step 4): what
 * infrastructure/<context>/index.ts holds. Its settings and secrets (none) and how its services are built. It needs
 * no database, so the same build is its command side, which the fast harness serves.
 */
import type { BuiltContext, CommandDeps } from '../../../../infrastructure/shared/context.js';
import { NoteWriter, type NotesServices } from './application.js';

/** Its slice of the configuration (a zod shape: infrastructure/<context>/config.ts). None. */
export const notesConfig = {};
/** Its secrets (infrastructure/<context>/secrets.ts). None. */
export const notesSecrets = {};

export function buildNotes(deps: CommandDeps<unknown>): BuiltContext<NotesServices> {
  return { services: { notes: new NoteWriter(deps) }, jobs: [], stop: async () => {} };
}
