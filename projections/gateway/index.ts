/**
 * The gateway's read models: none. Its check reads the small streams of a client id and a party (cached), and
 * operators read a party from its stream (docs/gateway.md). Import this file from outside projections/gateway
 * (docs/conventions.md, "Modules").
 */

/** The gateway's projectors, in the order the runner starts them. */
export const gatewayProjectors = [] as const;
