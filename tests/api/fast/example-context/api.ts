/**
 * The example context's API (docs/conventions.md, "Adding a context", step 5; "Routes"): what api/<context>/ holds.
 * One operator route, declared once (mounted and documented from the same spec), its body's schema, its error table
 * and the ContextApi the module lists.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Logger } from '../../../../application/shared/logger.js';
import { text } from '../../../../api/shared/input-schemas.js';
import { interfaceErrorHandler } from '../../../../api/shared/interface-errors.js';
import { successResponse } from '../../../../api/shared/openapi.js';
import { body, commandOf, ok, operatorErrors, operatorStatus } from '../../../../api/shared/operator-api.js';
import {
  operatorBaseErrors,
  operatorBodyErrors,
  operatorErrorResponses,
  operatorJsonBody,
  operatorRoute,
  operatorSuccess,
  registerOperatorRoutes,
} from '../../../../api/shared/operator-openapi.js';
import type { ContextApi } from '../../../../api/shared/context-api.js';
import { mount } from '../../../../api/shared/route-spec.js';
import type { NotesErrorCode, NotesServices } from './application.js';

const writeNoteBody = z.object({ noteId: text(1, 64), text: text(1, 280) }).strict();
const noteJson = z.object({ noteId: z.string(), text: z.string(), writtenAt: z.string() });

export const notesRoutes = {
  writeNote: operatorRoute('Operator: example notes', {
    method: 'post',
    path: '/example-notes',
    operationId: 'writeExampleNote',
    summary: 'Write a note (once per note id)',
    request: operatorJsonBody(writeNoteBody),
    responses: {
      201: successResponse('Written', operatorSuccess(noteJson)),
      ...operatorErrorResponses(...operatorBaseErrors, ...operatorBodyErrors, [409, 'OPS-CONFLICT', 'written already']),
    },
  }),
};

/** Every code of the context, mapped: a code added to NotesErrorCode does not compile until it is here. */
const errors = operatorErrors<NotesErrorCode>('example notes operator', {
  NOTE_EXISTS: operatorStatus.conflict,
  IDEMPOTENCY_KEY_REUSED: operatorStatus.conflict,
});

function notesOperatorRouter(deps: NotesServices & { logger: Logger }): Router {
  const router = Router();
  // Authentication and JSON bodies are the operator API's, before every context's router.
  mount(router, notesRoutes.writeNote, [], async (req, res) =>
    ok(await deps.notes.write(commandOf(req, res), body(writeNoteBody, req)), 201),
  );
  router.use(interfaceErrorHandler(errors, deps.logger));
  return router;
}

export const notesApi: ContextApi<NotesServices> = {
  interfaces: () => [],
  operatorRouter: (s, { logger }) => notesOperatorRouter({ ...s, logger }),
  openApi: [({ registry }) => registerOperatorRoutes(registry, notesRoutes)],
  description:
    'Example notes (`/operator/v1/example-notes`): the context docs/conventions.md, "Adding a context" adds.',
};
