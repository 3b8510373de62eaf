/**
 * The routes of the files interface (docs/files.md), declared once: router.ts mounts them, openapi.ts documents them
 * and the gateway in front of the interface rate-limits each (gateway.ts).
 */
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponses, requestIdHeader, successResponse, type ErrorCase } from '../shared/openapi.js';
import type { RouteSpec } from '../shared/route-spec.js';
import { filesCodes, filesErrorTable, filesGatewayRefusals, type FilesInterfaceErrorCode } from './errors.js';
import { fileData, fileIdParams, filesFailure, filesSuccess, uploadForm } from './schemas.js';

export const filesSecurity = [{ bearerAccessToken: [], clientId: [], clientSecret: [] }];

const route = (spec: Omit<RouteSpec, 'tags' | 'security'>): RouteSpec => ({
  tags: ['Files'],
  security: filesSecurity,
  ...spec,
});

const domainCase = (code: FilesInterfaceErrorCode, when: string): ErrorCase => [...filesErrorTable[code], when];

/** What any files call can get. */
const callErrors: ErrorCase[] = [
  [401, filesCodes.tokenMissing, '`Authorization: Bearer <access token>` missing or not of that form'],
  [401, filesCodes.tokenInvalid, 'the access token is not valid'],
  [401, filesCodes.tokenExpired, 'the access token has expired'],
  [401, filesCodes.tokenRevoked, 'the access token has been revoked'],
  [
    filesGatewayRefusals.CREDENTIALS_MISSING[0],
    filesCodes.gatewayCredentialsMissing,
    'gateway: no `client_id`/`client_secret`',
  ],
  [
    filesGatewayRefusals.CREDENTIALS_INVALID[0],
    filesCodes.gatewayCredentialsInvalid,
    'gateway: wrong `client_id`/`client_secret`',
  ],
  [400, filesCodes.environmentMismatch, 'gateway: the `env` header names another environment'],
  [403, filesCodes.interfaceNotGranted, 'gateway: the party is not granted the files interface'],
  [403, filesCodes.ipNotAllowed, "gateway: the caller's address is not on the party's allowlist"],
  [429, filesCodes.rateLimited, 'gateway: rate limit reached (see `Retry-After`)'],
  [500, filesCodes.internal, 'an unexpected failure'],
];

const notFound = domainCase('FILE_NOT_FOUND', "no such file, or not the caller's (user and mini-app of the token)");

const responses = (success: ResponseConfig, status: number, ...cases: ErrorCase[]) => ({
  [status]: success,
  ...errorResponses([...callErrors, ...cases], (_status, codes) => filesFailure(codes)),
});

export const filesRoutes = {
  upload: route({
    method: 'post',
    path: '/files',
    operationId: 'uploadFile',
    summary: 'Upload one file (the client SDK `uploadFile`)',
    description:
      "A `multipart/form-data` body with exactly one file part, under any field name, and other fields. The type is told from the content (magic bytes), never from the file name or the part's Content-Type: images, audio and video only, each kind with its size limit. The file is streamed to storage; a refused upload leaves nothing behind. The answer is the JSON the SDK hands to `success` as `data`.",
    request: { body: { required: true, content: { 'multipart/form-data': { schema: uploadForm } } } },
    responses: responses(
      {
        ...successResponse('Stored and recorded; `Location` names its content', filesSuccess(fileData)),
        headers: { ...requestIdHeader, Location: { schema: { type: 'string' }, description: 'the content URL' } },
      },
      201,
      [
        400,
        filesCodes.invalidRequest,
        'the multipart body is malformed (no boundary, truncated, a part without a name) or the request was aborted',
      ],
      domainCase('FILE_MISSING', 'the form holds no file part'),
      domainCase('TOO_MANY_FILES', 'the form holds more than one file part'),
      domainCase('FORM_FIELD_REPEATED', 'a form field is given twice'),
      domainCase('FILE_EXISTS', 'a file id handed out twice (a bug)'),
      domainCase('FILE_TOO_LARGE', "the file passed its kind's size limit (data: limit, kind)"),
      [413, filesCodes.formTooLarge, 'more form fields than allowed, a field value or name too long'],
      domainCase('FILE_TYPE_NOT_ALLOWED', 'the content is not an image, audio or video (data: detected)'),
      [415, filesCodes.notMultipart, '`Content-Type` is not `multipart/form-data`'],
      domainCase(
        'UPLOAD_QUOTA_EXCEEDED',
        "the user's upload quota of the UTC day (files or bytes) is spent (data: limit, used, resetsAt; `Retry-After` the reset)",
      ),
    ),
  }),

  describe: route({
    method: 'get',
    path: '/files/{fileId}',
    operationId: 'getFile',
    summary: "A file's description, for its owner",
    request: { params: fileIdParams },
    responses: responses(successResponse('The file', filesSuccess(fileData)), 200, notFound),
  }),

  content: route({
    method: 'get',
    path: '/files/{fileId}/content',
    operationId: 'downloadFile',
    summary: "A file's bytes, for its owner",
    description:
      'Streamed with its detected `Content-Type`, `Content-Length`, `X-Content-Type-Options: nosniff` and `Content-Disposition: attachment`: never rendered inline.',
    request: { params: fileIdParams },
    responses: responses(
      {
        description: 'The bytes',
        headers: requestIdHeader,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      200,
      notFound,
    ),
  }),
} satisfies Record<string, RouteSpec>;
