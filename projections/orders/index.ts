/**
 * The order view's read models: its projector and its tables (docs/orders-read-models.md, "Read models"). Import this file from
 * outside projections/orders (docs/conventions.md, "Modules").
 */
export { orderTables } from './order-tables.js';
export { ordersProjector } from './orders.js';

import { ordersProjector } from './orders.js';

/** The order view's projectors, in the order the runner starts them. */
export const ordersProjectors = [ordersProjector] as const;
