/** A file as the files interface shows it (docs/files.md, "Answers and codes"): the `data` of its answers. */
import type { FileView } from '../../application/files/index.js';

/** Where the interface is served. */
export const filesBasePath = '/open/files/v1';

export const contentPath = (fileId: string) => `${filesBasePath}/files/${fileId}/content`;

export function fileJson(file: FileView, publicBaseUrl: string) {
  return {
    fileId: file.fileId,
    url: publicBaseUrl + contentPath(file.fileId),
    type: file.mime,
    kind: file.kind,
    size: file.size,
    sha256: file.sha256,
    fieldName: file.fieldName,
    originalName: file.originalName,
    formData: file.formFields,
    uploadedAt: file.uploadedAt,
  };
}

/** RFC 6266 `attachment`, with an ASCII fallback name and the UTF-8 one (RFC 8187). */
export function attachment(file: Pick<FileView, 'fileId' | 'originalName'>): string {
  const name = file.originalName ?? file.fileId;
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
