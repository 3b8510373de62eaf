/**
 * The example context's module (docs/conventions.md, "Adding a context", step 6): the one entry that registers it,
 * as contexts.ts lists the service's. Here the test adds it to a list of its own (example-context.test.ts).
 */
import { defineContext } from '../../../../context-module.js';
import { notesApi } from './api.js';
import { notesEventDecoder } from './domain.js';
import { buildNotes, notesConfig, notesSecrets } from './infrastructure.js';
import { notesProjectors } from './projections.js';

export const notesContext = defineContext({
  name: 'notes',
  config: notesConfig,
  secrets: notesSecrets,
  build: buildNotes,
  commandSide: buildNotes,
  api: notesApi,
  projectors: notesProjectors,
  events: notesEventDecoder,
});
