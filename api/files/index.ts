/**
 * The files context's API: the files interface under /open/files/v1 behind the gateway, and its OpenAPI. The only
 * file of api/files the composition root imports (docs/conventions.md, "Modules").
 */
import type { FilesServices } from '../../application/files/index.js';
import type { ContextApi } from '../shared/context-api.js';
import { filesGateway } from './gateway.js';
import { registerFilesOpenApi } from './openapi.js';
import { filesBasePath, filesRouter } from './router.js';

export { filesBasePath } from './router.js';

export const filesApi: ContextApi<FilesServices> = {
  interfaces: (s, { logger }) => [
    {
      path: filesBasePath,
      router: filesRouter({ logger, ...s }),
      gateway: filesGateway,
    },
  ],
  openApi: [registerFilesOpenApi],
  description:
    'File upload (`/open/files/v1`): the server side of the client SDK `uploadFile`, one image, audio or video file per call, for the user of a bearer access token, downloadable by that user. Answers are `{code, message, data}` with a numeric `code` (0 on success). Details: docs/files.md.',
};
