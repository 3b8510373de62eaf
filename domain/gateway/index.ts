/**
 * The gateway's domain, as other layers see it: the party decider, its events, the decoder, the client-id lookup and
 * typed errors. Import this file from outside domain/gateway (docs/conventions.md, "Modules").
 */
export * from './client-lookup.js';
export * from './errors.js';
export * from './event-decoder.js';
export * from './events.js';
export * from './party.js';
export { gatewayInterfaces, type GatewayInterface } from '../shared/gateway-interfaces.js';
