/**
 * The files context's domain, as other layers see it: the file decider, its events, the decoder, kinds, names and
 * typed errors. Import this file from outside domain/files (docs/conventions.md, "Modules").
 */
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './file.js';
export * from './file-kind.js';
export * from './file-name.js';
export * from './upload-quota.js';
