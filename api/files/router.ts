/**
 * The files interface (docs/files.md) under /open/files/v1: upload, describe and download, each a user's (bearer
 * access token), with its 404 and its error envelope. No JSON body parser: the upload's multipart body is streamed.
 */
import { Router } from 'express';
import type { FileDownloads, FileUploads, FormLimits } from '../../application/files/index.js';
import type { AccessTokenVerifier } from '../../application/shared/access-tokens.js';
import type { Logger } from '../../application/shared/logger.js';
import { commandContextOf } from '../shared/command-context.js';
import { HttpError, unknownEndpoint } from '../shared/interface-errors.js';
import { mount } from '../shared/route-spec.js';
import { streamed } from '../shared/route.js';
import { bearerAuth, ownerOf } from './auth.js';
import { filesOk } from './envelope.js';
import { filesCodes, filesErrorHandler, filesErrors } from './errors.js';
import { attachment, contentPath, fileJson } from './file-json.js';
import { readMultipart } from './multipart.js';
import { filesRoutes } from './routes.js';

export { filesBasePath } from './file-json.js';

export interface FilesRouterDeps {
  logger: Logger;
  uploads: FileUploads;
  downloads: FileDownloads;
  formLimits: FormLimits;
  accessTokens: AccessTokenVerifier;
  publicBaseUrl: string;
}

export function filesRouter(deps: FilesRouterDeps): Router {
  const router = Router();
  const auth = bearerAuth(deps.accessTokens);

  mount(router, filesRoutes.upload, [auth], async (req, res) => {
    if (!req.is('multipart/form-data'))
      throw new HttpError(415, filesCodes.notMultipart, 'Content-Type must be multipart/form-data');
    const owner = ownerOf(res);
    const reader = readMultipart(req, deps.formLimits);
    try {
      const context = commandContextOf(req, res, { actor: { userId: owner.userId } });
      const file = await deps.uploads.upload(context, owner, reader.parts);
      return filesOk(fileJson(file, deps.publicBaseUrl), 201, {
        Location: deps.publicBaseUrl + contentPath(file.fileId),
      });
    } catch (error) {
      // A body that broke (malformed, aborted) is the cause, whatever the upload made of it.
      throw reader.failure() ?? error;
    }
  });

  mount(router, filesRoutes.describe, [auth], async (req, res) => {
    const file = await deps.downloads.describe(ownerOf(res), req.params.fileId!);
    return filesOk(fileJson(file, deps.publicBaseUrl));
  });

  mount(router, filesRoutes.content, [auth], async (req, res) => {
    const { file, stream } = await deps.downloads.open(ownerOf(res), req.params.fileId!);
    return streamed(200, stream, {
      'Content-Type': file.mime,
      'Content-Length': String(file.size),
      'Content-Disposition': attachment(file),
      'X-Content-Type-Options': 'nosniff',
      // Were it ever opened in a browser anyway: no script, no plugin, nothing loaded.
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, no-store',
      ETag: `"${file.sha256}"`,
    });
  });

  router.use(unknownEndpoint(filesErrors));
  router.use(filesErrorHandler(deps.logger));
  return router;
}
