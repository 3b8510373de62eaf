/**
 * The payment hub's read models: its projectors and their tables. A transaction's status is read from its aggregate
 * (clients poll it); what is projected here is the hub's stored schedule (transaction-timers.ts). Import this file
 * from outside projections/payments (docs/conventions.md, "Modules").
 */
export * from './transaction-timers.js';

import { paymentsTimersProjector } from './transaction-timers.js';

/** The hub's projectors, in the order the runner starts them. */
export const paymentsProjectors = [paymentsTimersProjector] as const;
