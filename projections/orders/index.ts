/**
 * The order view's read models: its projectors and their tables (docs/orders.md, "Read models"). Import this file
 * from outside projections/orders (docs/conventions.md, "Modules").
 */

/** The order view's projectors, in the order the runner starts them. */
export const ordersProjectors = [] as const;
