/**
 * The files interface as zod schemas, for its OpenAPI document (routes.ts): the form of an upload, the file
 * description every answer carries and the envelopes. docs/files.md.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export const uploadForm = z
  .object({
    file: z.string().openapi({
      format: 'binary',
      description:
        'the one file, under any field name (the client SDK\'s `fileName`; "file" here only as an example): an image, audio or video, told from its content',
    }),
  })
  .catchall(z.string().describe("other form fields (the SDK's `formData`), kept with the file"))
  .openapi('FileUploadForm');

export const fileIdParams = z.object({
  fileId: z.string().openapi({ format: 'uuid', description: 'the id an upload answered' }),
});

export const fileData = z
  .object({
    fileId: z.string().openapi({ format: 'uuid' }),
    url: z
      .string()
      .describe('where its owner downloads it: `FILES_PUBLIC_BASE_URL` + the content path (a path when that is unset)'),
    type: z.string().describe('media type detected from the content, e.g. `image/png`'),
    kind: z.enum(['image', 'audio', 'video']),
    size: z.number().int().describe('bytes'),
    sha256: z.string().describe('lowercase hex SHA-256 of the bytes'),
    fieldName: z.string().describe('the form field the file came under'),
    originalName: z.string().nullable().describe("the client's file name, sanitised; a label only"),
    formData: z.record(z.string()).describe('the other form fields, as sent'),
    uploadedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('UploadedFile');

export const filesSuccess = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ code: z.literal(0), message: z.literal('Success'), data });

/** The files failure envelope: one of `codes` (numbers), a message, and data (the limit or type, where it helps). */
export const filesFailure = (codes: [string, ...string[]]) =>
  z.object({
    code: z
      .number()
      .int()
      .openapi({ enum: codes.map(Number) }),
    message: z.string().describe('what was wrong'),
    data: z
      .record(z.unknown())
      .nullable()
      .describe('null, or what helps: `limit` and `kind` (413), `detected` (415), `field`'),
  });
