/**
 * The order view's domain, as other layers see it: deciders, events, the decoder, the order's fields and typed
 * errors. Import this file from outside domain/orders (docs/conventions.md, "Modules").
 */
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './order-fields.js';
export * from './order-merchant.js';
export * from './order.js';
export * from './order-signature.js';
