/**
 * The files interface's codes and errors (docs/files.md, "Answers and codes"): the typed codes of uploads and
 * downloads → its HTTP status and numeric code, through a table that does not compile with a code left out; its
 * codes for refused credentials, malformed requests, unknown endpoints, the gateway's refusals and the 500.
 */
import type { ErrorRequestHandler } from 'express';
import type { DownloadErrorCode, UploadErrorCode } from '../../application/files/index.js';
import type { Logger } from '../../application/shared/logger.js';
import { gatewayRefusalsOf } from '../shared/gateway-front.js';
import { interfaceErrorHandler, type ErrorTable, type InterfaceErrors } from '../shared/interface-errors.js';
import { sendFilesError } from './envelope.js';

/** Every code the interface answers with besides the domain's (which its table maps), as strings of digits. */
export const filesCodes = {
  invalidRequest: '4001',
  environmentMissing: '4005',
  environmentMismatch: '4006',
  tokenInvalid: '4100',
  tokenMissing: '4101',
  tokenExpired: '4102',
  tokenRevoked: '4103',
  gatewayCredentialsMissing: '4110',
  gatewayCredentialsInvalid: '4111',
  interfaceNotGranted: '4201',
  ipNotAllowed: '4202',
  unknownEndpoint: '4300',
  formTooLarge: '4131',
  notMultipart: '4151',
  rateLimited: '429',
  internal: '5000',
} as const;

export type FilesInterfaceErrorCode = UploadErrorCode | DownloadErrorCode;

export const filesErrorTable: ErrorTable<FilesInterfaceErrorCode> = {
  FILE_MISSING: [400, '4002'],
  TOO_MANY_FILES: [400, '4003'],
  FORM_FIELD_REPEATED: [400, '4004'],
  FILE_NOT_FOUND: [404, '4301'],
  FILE_EXISTS: [409, '4091'],
  FILE_TOO_LARGE: [413, '4130'],
  FILE_TYPE_NOT_ALLOWED: [415, '4150'],
  // Too many requests of this user today: 429 as the gateway's limits, the interface's own code (docs/files.md).
  UPLOAD_QUOTA_EXCEEDED: [429, '4291'],
};

/** The gateway's refusals in the files envelope (api/shared/gateway-front.ts). */
export const filesGatewayRefusals = gatewayRefusalsOf(filesCodes);

/** The domain's details a refusal shows: the limit passed, the type detected, the field named, a quota's use. */
const shownDetails: ReadonlySet<string> = new Set(['limit', 'kind', 'detected', 'field', 'used', 'resetsAt']);

export const filesErrors: InterfaceErrors<FilesInterfaceErrorCode> = {
  name: 'files',
  table: filesErrorTable,
  malformed: {
    invalid: filesCodes.invalidRequest,
    tooLarge: filesCodes.formTooLarge,
    unsupportedMediaType: filesCodes.notMultipart,
  },
  unknownEndpoint: filesCodes.unknownEndpoint,
  internal: { code: filesCodes.internal, message: 'internal error' },
  send: sendFilesError,
  detailsOf: (error) => {
    const shown = Object.entries(error.details).filter(([key]) => shownDetails.has(key));
    return shown.length ? Object.fromEntries(shown) : null;
  },
};

export function filesErrorHandler(logger: Logger): ErrorRequestHandler {
  return interfaceErrorHandler(filesErrors, logger);
}
