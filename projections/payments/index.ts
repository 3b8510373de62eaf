/**
 * The payment hub's read models: its projectors and their tables. Merchant backends read a transaction's status from
 * its aggregate (clients poll it); projected here are the transactions as operators list them (transactions.ts) and
 * the hub's stored schedule (transaction-timers.ts). Import this file from outside projections/payments
 * (docs/conventions.md, "Modules").
 */
export * from './ipn-outbox.js';
export * from './transaction-timers.js';
export * from './transactions.js';
export * from './session-ipn-outbox.js';
export * from './session-timers.js';

import { paymentsTimersProjector } from './transaction-timers.js';
import { paymentsTransactionsProjector } from './transactions.js';
import { paymentSessionTimersProjector } from './session-timers.js';

/** The hub's projectors, in the order the runner starts them. */
export const paymentsProjectors = [
  paymentsTransactionsProjector,
  paymentsTimersProjector,
  paymentSessionTimersProjector,
] as const;
