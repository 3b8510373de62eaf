/**
 * The payment hub's read models: its projectors and their tables (none yet: every read of the hub so far is a
 * transaction's status, which clients poll, so it reads the aggregate; docs/payments.md). Import this file from
 * outside projections/payments (docs/conventions.md, "Modules").
 */
import type { Projector } from '../shared/projector.js';

/** The hub's projectors, in the order the runner starts them. */
export const paymentsProjectors: readonly Projector[] = [];
