/**
 * The payment hub's domain, as other layers see it: deciders, events, the decoder, typed errors, signing strings.
 * Import this file from outside domain/payments (docs/conventions.md, "Modules").
 */
export * from './api-key-lookup.js';
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './ipn.js';
export * from './ipn-delivery.js';
export * from './merchant.js';
export * from './payment-methods.js';
export * from './saved-methods.js';
export * from './signing-strings.js';
export * from './transaction-details.js';
export * from './transaction.js';
export * from './refund-ledger.js';
export * from './transaction-snapshot.js';
export * from './payment-session-details.js';
export * from './payment-session.js';
export * from './payment-session-ipn.js';
export * from './session-signing-strings.js';
export * from './session-refunds.js';
