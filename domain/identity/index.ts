/**
 * The identity context's domain, as other layers see it: deciders, events, the decoder, scopes and typed errors.
 * Import this file from outside domain/identity (docs/conventions.md, "Modules").
 */
export * from './auth-code.js';
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './mini-app.js';
export * from './scopes.js';
export * from './token-grant.js';
export * from './user.js';
