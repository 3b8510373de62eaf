/**
 * Uploaded files as operators and analysts list them (docs/files.md, "Read model"): who uploaded what, when, of
 * which kind and size. Eventually consistent with the event store (projector lag at /metrics); downloads answer from
 * the aggregate, never from here.
 */
import type { Knex } from 'knex';
import { filesEventDecoder, type FileEvent, type FilesEvent } from '../../domain/files/index.js';
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';

const table = 'files_uploaded';

/** One row per uploaded file. */
export const uploadedFilesProjector: Projector = {
  name: 'files-uploaded',
  version: 1,
  eventTypes: new Set<FileEvent['type']>(['FileUploaded']),
  decoder: filesEventDecoder,
  tables: [
    {
      name: table,
      comment:
        'Files users uploaded through the files interface, one row per file; eventually consistent with the event store (lag at /metrics). Fed by FileUploaded.',
      columns: {
        file_id: 'File id (UUID), as the files interface names it.',
        user_id: 'Host-app user who uploaded it (the user of the access token).',
        mini_app_id: 'Mini-app whose access token uploaded it.',
        kind: 'image, audio or video (told from the content).',
        mime: 'Media type detected from the content, e.g. image/png.',
        size_bytes: 'Size in bytes.',
        sha256: 'Lowercase hex SHA-256 of the bytes.',
        field_name: 'Form field the file came under.',
        original_name: 'File name the client gave, sanitised; null when none.',
        form_fields: 'The other form fields, as a JSON object of strings.',
        storage_key: 'Where the storage keeps the bytes (under FILES_DIR/objects).',
        uploaded_at: 'When it was recorded.',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const t = physical(names, table);
    await knex.schema.createTable(t, (b) => {
      b.uuid('file_id').primary();
      b.text('user_id').notNullable();
      b.text('mini_app_id').notNullable();
      b.text('kind').notNullable();
      b.text('mime').notNullable();
      b.bigInteger('size_bytes').notNullable();
      b.text('sha256').notNullable();
      b.text('field_name').notNullable();
      b.text('original_name');
      b.jsonb('form_fields').notNullable();
      b.text('storage_key').notNullable();
      b.timestamp('uploaded_at', { useTz: true }).notNullable();
      b.text('last_position').notNullable();
      b.index(['user_id', 'uploaded_at'], `${t}_user`);
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<FilesEvent>[], names: PhysicalNames) {
    const t = physical(names, table);
    for (const e of events) {
      switch (e.type) {
        case 'FileUploaded': {
          const d = e.data;
          // A redelivered upload finds its row: the insert is ignored.
          await trx(t)
            .insert({
              file_id: d.fileId,
              user_id: d.owner.userId,
              mini_app_id: d.owner.miniAppId,
              kind: d.kind,
              mime: d.mime,
              size_bytes: d.size,
              sha256: d.sha256,
              field_name: d.fieldName,
              original_name: d.originalName,
              form_fields: JSON.stringify(d.formFields),
              storage_key: d.storageKey,
              uploaded_at: d.uploadedAt,
              last_position: e.position,
            })
            .onConflict('file_id')
            .ignore();
          break;
        }
      }
    }
  },
};
