/**
 * The promotion checkout's domain, as other layers see it: deciders, events, the decoder and typed errors. Import
 * this file from outside domain/checkout (docs/conventions.md, "Modules").
 */
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './discount.js';
export * from './issued-promotion.js';
export * from './promotion-master.js';
export * from './checkout-reservation.js';
export * from './checkout-order.js';
export * from './eligibility.js';
export * from './merchant-scope.js';
export * from './promotion-usage.js';
export * from './promotion-allotment.js';
