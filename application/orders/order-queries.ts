/**
 * What the customer app and the portal read of the order view (docs/orders-read-models.md, "Read models"): projections, so
 * eventually consistent with the webhooks (projector lag at /metrics). A customer sees only orders whose
 * customer.customer_id is the user of their access token; another's order is answered as not found.
 */
import { ordersError, withDefaultAmounts, type OrderChanges } from '../../domain/orders/index.js';
import { customerAsShown, type CustomerAccess } from './customer-access.js';

export interface OrderSummary {
  merchantId: string;
  orderId: string;
  customerId: string | null;
  orderType: string | null;
  orderTypeKnown: boolean;
  orderName: string | null;
  status: string | null;
  paymentStatus: string | null;
  businessUnitId: string | null;
  branchId: string | null;
  sellerMerchantId: string | null;
  currency: string | null;
  /** Amounts exactly as sent (never rounded); paid and refunded 0 when never sent (the seed's default). */
  totalAmount: number | null;
  grandTotal: number | null;
  paidAmount: number;
  refundedAmount: number;
  itemCount: number;
  /** order.created's envelope: who created the order, on which host app and mini-app. */
  createdBy: string;
  platformCode: string;
  miniappId: string;
  orderedAt: string;
  lastEventAt: string;
  cancelled: boolean;
}

export interface OrderHistoryEntry {
  event: string;
  eventTimestamp: number;
  status: string | null;
  paymentStatus: string | null;
  appliedFields: string[];
  staleFields: string[];
  early: boolean;
  receivedAt: string;
}

export interface OrderDetail extends OrderSummary {
  /** The order as it shows now, in the sender's fields; extension maps as their exact JSON text. */
  order: OrderChanges;
  history: OrderHistoryEntry[];
}

/** Where an order stands in a listing (newest ordered_at first, then merchant and order id): a keyset cursor. */
export interface ListPosition {
  orderedAt: string;
  merchantId: string;
  orderId: string;
}

export interface Paging {
  page: number;
  size: number;
  /** Keyset paging: the orders after this one (then `page` is 1); reaches any depth at the cost of one page. */
  after?: ListPosition;
}

export interface OrderPage {
  orders: OrderSummary[];
  /** How many orders match: exact when `countsExact`, else a lower bound (the count limit). */
  total: number;
  /** How many of the orders matching the filter without its status are in each status; null when not exact. */
  countsByStatus: Record<string, number> | null;
  /**
   * Whether `total` and `countsByStatus` are exact: always up to the count limit, beyond it when the daily statistics
   * answer the filter (docs/orders-read-models.md, "Counts at scale").
   */
  countsExact: boolean;
  /** The last order of a full page, to ask for the next page with (`after`); null when the page is not full. */
  next: ListPosition | null;
}

export interface PortalFilter {
  merchantId?: string;
  businessUnitId?: string;
  branchId?: string;
  sellerMerchantId?: string;
  orderType?: string;
  status?: string;
  paymentStatus?: string;
  customerId?: string;
  /** ordered_at from (inclusive) and to (exclusive), ISO 8601. */
  from?: string;
  to?: string;
}

export interface DailyStatsFilter {
  /** UTC days, YYYY-MM-DD, both inclusive. */
  from: string;
  to: string;
  merchantId?: string;
  orderType?: string;
  status?: string;
}

export interface DailyStat {
  day: string;
  merchantId: string;
  orderType: string;
  status: string;
  currency: string;
  orderCount: number;
  gmv: number;
}

/** The read model's port (infrastructure/orders/order-read-model.ts). */
export interface OrderReadModel {
  list(filter: PortalFilter, paging: Paging): Promise<OrderPage>;
  detail(merchantId: string, orderId: string): Promise<OrderDetail | undefined>;
  dailyStats(filter: DailyStatsFilter): Promise<DailyStat[]>;
}

/** How deep a listing pages: beyond, each page would skip more rows than a query should read. */
export const maxListDepth = 10_000;

function checkDepth(paging: Paging): void {
  if (paging.after !== undefined && paging.page !== 1)
    throw ordersError('INVALID_ORDER_QUERY', 'page goes with after only as 1: after names the page already', {
      field: 'page',
    });
  if (paging.page * paging.size > maxListDepth)
    throw ordersError(
      'INVALID_ORDER_QUERY',
      `page × size must be at most ${maxListDepth}: page on with after (next_cursor), or narrow the filter`,
      { field: 'page' },
    );
}

export class OrderQueries {
  constructor(private readonly readModel: OrderReadModel) {}

  /** The customer's own orders, newest first (a summary carries no consent-gated field). */
  async myOrders(
    access: CustomerAccess,
    filter: { status?: string; orderType?: string },
    paging: Paging,
  ): Promise<OrderPage> {
    checkDepth(paging);
    return this.readModel.list({ ...filter, customerId: access.customerId }, paging);
  }

  /** One of the customer's orders, its customer's fields as `access` allows (customer-access.ts); another's is not found. */
  async myOrder(access: CustomerAccess, merchantId: string, orderId: string): Promise<OrderDetail> {
    const order = await this.readModel.detail(merchantId, orderId);
    if (!order || order.customerId !== access.customerId) throw notFound(merchantId, orderId);
    const detail = shown(order);
    if (!detail.order.customer) return detail;
    return { ...detail, order: { ...detail.order, customer: customerAsShown(detail.order.customer, access) } };
  }

  /** The portal's listing: any filter, newest first, with counts. */
  async portalOrders(filter: PortalFilter, paging: Paging): Promise<OrderPage> {
    checkDepth(paging);
    if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to)
      throw ordersError('INVALID_ORDER_QUERY', 'from must not be after to', { field: 'from' });
    return this.readModel.list(filter, paging);
  }

  async portalOrder(merchantId: string, orderId: string): Promise<OrderDetail> {
    const order = await this.readModel.detail(merchantId, orderId);
    if (!order) throw notFound(merchantId, orderId);
    return shown(order);
  }

  dailyStats(filter: DailyStatsFilter): Promise<DailyStat[]> {
    if (filter.from > filter.to)
      throw ordersError('INVALID_ORDER_QUERY', 'from must not be after to', { field: 'from' });
    return this.readModel.dailyStats(filter);
  }
}

/** The order as the views show it: the amounts the seed defaults to 0 shown as 0 when never sent. */
const shown = (detail: OrderDetail): OrderDetail =>
  detail.order.amounts
    ? { ...detail, order: { ...detail.order, amounts: withDefaultAmounts(detail.order.amounts) } }
    : detail;

const notFound = (merchantId: string, orderId: string) =>
  ordersError('ORDER_NOT_FOUND', `no order ${orderId} of merchant ${merchantId} (or not yet in the order view)`, {
    merchantId,
    orderId,
  });
