/**
 * The voucher shop's domain, as other layers see it: deciders, events, the decoder, typed errors and value
 * objects. Import this file from outside domain/shop (docs/conventions.md, "Modules").
 */
export * from './campaign.js';
export * from './category.js';
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './merchant.js';
export * from './pool-definition.js';
export * from './pool-sale.js';
export * from './purchase-day.js';
export * from './purchase-request.js';
export * from './reservation.js';
export * from './vietnamese-text.js';
export * from './voucher-pool.js';
