/**
 * The order view's read model adapter (application/orders/order-queries.ts): knex over the tables its projector owns
 * (projections/orders; docs/orders-read-models.md, "Read models"). Listings are indexed by customer, merchant and the
 * other filters, newest first; their counts read at most the count limit's matches, beyond it the daily statistics
 * (rows the projector keeps) or nothing ("Counts at scale").
 */
import type { Knex } from 'knex';
import { preparedBuilderRows, preparedRows } from '../shared/prepared-query.js';
import type {
  DailyStat,
  DailyStatsFilter,
  OrderDetail,
  OrderPage,
  OrderReadModel,
  OrderSummary,
  Paging,
  PortalFilter,
} from '../../application/orders/index.js';
import type { OrderChanges } from '../../application/orders/index.js';
import { orderTables } from '../../projections/orders/index.js';

interface OrderRow {
  merchant_id: string;
  order_id: string;
  customer_id: string | null;
  order_type: string | null;
  order_type_known: boolean;
  order_name: string | null;
  status: string | null;
  payment_status: string | null;
  business_unit_id: string | null;
  branch_id: string | null;
  seller_merchant_id: string | null;
  currency: string | null;
  total_amount: string | null;
  grand_total: string | null;
  paid_amount: string;
  refunded_amount: string;
  item_count: number;
  created_by: string;
  platform_code: string;
  miniapp_id: string;
  ordered_at: Date;
  last_event_at: Date;
  cancelled: boolean;
  fields: OrderChanges;
}

/** numeric without a scale holds the amount as sent; its text reads back as the same number. */
const amount = (value: string | null) => (value === null ? null : Number(value));

const summaryOf = (r: OrderRow): OrderSummary => ({
  merchantId: r.merchant_id,
  orderId: r.order_id,
  customerId: r.customer_id,
  orderType: r.order_type,
  orderTypeKnown: r.order_type_known,
  orderName: r.order_name,
  status: r.status,
  paymentStatus: r.payment_status,
  businessUnitId: r.business_unit_id,
  branchId: r.branch_id,
  sellerMerchantId: r.seller_merchant_id,
  currency: r.currency,
  totalAmount: amount(r.total_amount),
  grandTotal: amount(r.grand_total),
  paidAmount: Number(r.paid_amount),
  refundedAmount: Number(r.refunded_amount),
  itemCount: r.item_count,
  createdBy: r.created_by,
  platformCode: r.platform_code,
  miniappId: r.miniapp_id,
  orderedAt: r.ordered_at.toISOString(),
  lastEventAt: r.last_event_at.toISOString(),
  cancelled: r.cancelled,
});

const summaryColumns = [
  'merchant_id',
  'order_id',
  'customer_id',
  'order_type',
  'order_type_known',
  'order_name',
  'status',
  'payment_status',
  'business_unit_id',
  'branch_id',
  'seller_merchant_id',
  'currency',
  'total_amount',
  'grand_total',
  'paid_amount',
  'refunded_amount',
  'item_count',
  'created_by',
  'platform_code',
  'miniapp_id',
  'ordered_at',
  'last_event_at',
  'cancelled',
];

/** The daily statistics can count a filter made only of these, with whole UTC days as its range. */
const dailyDimensions = new Set(['merchantId', 'orderType', 'status', 'from', 'to']);
const midnight = (iso: string | undefined) => iso === undefined || iso.endsWith('T00:00:00.000Z');
/** Across merchants the daily statistics answer for at most a month (a row per merchant, day, type and status). */
const dailyMaxDaysAcrossMerchants = 31;

/** PostgreSQL's undefined_table. */
const undefinedTable = '42P01';

/** A filter of nothing but a status: its counts by status are the whole table's (the status filter left out). */
const wholeTable = (filter: PortalFilter) =>
  Object.entries(filter).every(([k, v]) => v === undefined || k === 'status');

/**
 * Whether the daily statistics can count the filter exactly: merchant, type, status and a range of whole UTC days
 * (ordered_at's day), with a merchant or over at most a month.
 */
function dailyCountable(filter: PortalFilter): boolean {
  const used = Object.entries(filter).filter(([, v]) => v !== undefined);
  if (!used.every(([k]) => dailyDimensions.has(k)) || !midnight(filter.from) || !midnight(filter.to)) return false;
  if (filter.merchantId !== undefined) return true;
  return (
    filter.from !== undefined &&
    filter.to !== undefined &&
    Date.parse(filter.to) - Date.parse(filter.from) <= dailyMaxDaysAcrossMerchants * 86_400_000
  );
}

export class PostgresOrderReadModel implements OrderReadModel {
  private readonly countLimit: number;

  constructor(
    private readonly knex: Knex,
    options: { countLimit?: number } = {},
  ) {
    this.countLimit = options.countLimit ?? 10_000;
  }

  async list(filter: PortalFilter, paging: Paging): Promise<OrderPage> {
    const where = (q: Knex.QueryBuilder) => {
      const equal: [string, string | undefined][] = [
        ['merchant_id', filter.merchantId],
        ['business_unit_id', filter.businessUnitId],
        ['branch_id', filter.branchId],
        ['seller_merchant_id', filter.sellerMerchantId],
        ['order_type', filter.orderType],
        ['payment_status', filter.paymentStatus],
        ['customer_id', filter.customerId],
      ];
      for (const [column, value] of equal) if (value !== undefined) void q.where(column, value);
      if (filter.from !== undefined) void q.where('ordered_at', '>=', filter.from);
      if (filter.to !== undefined) void q.where('ordered_at', '<', filter.to);
      return q;
    };
    const table = orderTables.orders;
    const withStatus = (q: Knex.QueryBuilder) => (filter.status === undefined ? q : q.where('status', filter.status));
    // Counted over at most countLimit + 1 matches, so a count costs at most that many index entries whatever matches.
    const capped = this.knex
      .select('status')
      .count({ n: '*' })
      .from(
        where(this.knex(table).select('status'))
          .limit(this.countLimit + 1)
          .as('matches'),
      )
      .groupBy('status');
    // The page's keys first, then its rows: the keys come from the listing's index alone (it includes the filters'
    // columns and the key), so a filter on included columns (type, status, payment status) skips index entries, not
    // rows fetched from the table (docs/orders-read-models.md, "Indexes").
    const newestFirst = (alias: string) => [
      { column: `${alias}.ordered_at`, order: 'desc' },
      { column: `${alias}.merchant_id`, order: 'asc' },
      { column: `${alias}.order_id`, order: 'asc' },
    ];
    const keys = withStatus(where(this.knex(`${table} as k`).select('k.merchant_id', 'k.order_id')))
      .orderBy(newestFirst('k'))
      .modify((q) => {
        const after = paging.after;
        // After a position in (ordered_at desc, merchant_id asc, order_id asc): the index on ordered_at bounds it.
        if (after)
          void q.andWhere((b) =>
            b
              .where('k.ordered_at', '<', after.orderedAt)
              .orWhere((same) =>
                same
                  .where('k.ordered_at', '=', after.orderedAt)
                  .andWhere((next) =>
                    next
                      .where('k.merchant_id', '>', after.merchantId)
                      .orWhere((m) =>
                        m.where('k.merchant_id', '=', after.merchantId).andWhere('k.order_id', '>', after.orderId),
                      ),
                  ),
              ),
          );
      })
      .limit(paging.size)
      .offset((paging.page - 1) * paging.size);
    const [rows, { countsByStatus, countsExact }] = await Promise.all([
      preparedBuilderRows<OrderRow>(
        this.knex,
        this.knex(`${table} as o`)
          .select(summaryColumns.map((c) => `o.${c}`))
          .join(keys.as('p'), (on) => on.on('o.merchant_id', 'p.merchant_id').andOn('o.order_id', 'p.order_id'))
          .orderBy(newestFirst('o')),
      ),
      this.counts(filter, capped),
    ]);
    const total = !countsByStatus
      ? this.countLimit
      : filter.status === undefined
        ? Object.values(countsByStatus).reduce((a, b) => a + b, 0)
        : (countsByStatus[filter.status] ?? 0);
    const last = rows.length === paging.size ? rows[rows.length - 1] : undefined;
    const next = last
      ? { orderedAt: last.ordered_at.toISOString(), merchantId: last.merchant_id, orderId: last.order_id }
      : null;
    return { orders: rows.map(summaryOf), total, countsByStatus, countsExact, next };
  }

  /**
   * The listing's counts by status: those the projector keeps when they answer the filter (keptCounts), else counted
   * along the orders up to the count limit, and beyond it asked of the daily statistics (null when they cannot say).
   */
  private async counts(
    filter: PortalFilter,
    capped: Knex.QueryBuilder,
  ): Promise<{ countsByStatus: Record<string, number> | null; countsExact: boolean }> {
    const kept = await this.keptCounts(filter);
    if (kept) return { countsByStatus: kept, countsExact: true };
    const counted = Object.fromEntries(
      (await preparedBuilderRows<{ status: string | null; n: string }>(this.knex, capped)).map((c) => [
        c.status ?? '',
        Number(c.n),
      ]),
    );
    if (Object.values(counted).reduce((a, b) => a + b, 0) <= this.countLimit)
      return { countsByStatus: counted, countsExact: true };
    const daily = await this.dailyCounts(filter);
    return { countsByStatus: daily, countsExact: daily !== null };
  }

  /**
   * The counts the projector keeps, when they answer the filter exactly: the status totals for the whole table, the
   * merchant's totals (by type and status) for a merchant, its daily statistics for a merchant over whole days.
   * Undefined for other filters, and while an upgrade's rebuild runs (tables of an older version have no totals yet).
   */
  private async keptCounts(filter: PortalFilter): Promise<Record<string, number> | undefined> {
    const kept = wholeTable(filter)
      ? this.statusTotals()
      : filter.merchantId !== undefined && dailyCountable(filter)
        ? filter.from === undefined && filter.to === undefined
          ? this.merchantTotals(filter.merchantId, filter.orderType)
          : this.dailyCounts(filter)
        : undefined;
    try {
      return (await kept) ?? undefined;
    } catch (error) {
      if ((error as { code?: string }).code === undefinedTable) return undefined;
      throw error;
    }
  }

  /** The orders per status over the whole table, as the projector keeps them. */
  private async statusTotals(): Promise<Record<string, number>> {
    const rows = await preparedRows<{ status: string; n: string }>(
      this.knex,
      `SELECT status, order_count AS n FROM ${orderTables.totals} WHERE order_count <> 0`,
      [],
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** A merchant's orders per status (of one order type, if given), as the projector keeps them. */
  private async merchantTotals(merchantId: string, orderType: string | undefined): Promise<Record<string, number>> {
    const rows = await preparedRows<{ status: string; n: string }>(
      this.knex,
      `SELECT status, sum(order_count) AS n FROM ${orderTables.merchantTotals}
        WHERE merchant_id = ? AND (order_type = ? OR ?::text IS NULL) GROUP BY status HAVING sum(order_count) <> 0`,
      [merchantId, orderType ?? null, orderType ?? null],
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /**
   * The counts by status from the daily statistics the projector keeps, when they can give them (dailyCountable);
   * else null.
   */
  private async dailyCounts(filter: PortalFilter): Promise<Record<string, number> | null> {
    if (!dailyCountable(filter)) return null;
    const q = this.knex(orderTables.daily).select('status').sum({ n: 'order_count' }).groupBy('status');
    if (filter.merchantId !== undefined) void q.where('merchant_id', filter.merchantId);
    if (filter.orderType !== undefined) void q.where('order_type', filter.orderType);
    if (filter.from !== undefined) void q.where('day', '>=', filter.from.slice(0, 10));
    if (filter.to !== undefined) void q.where('day', '<', filter.to.slice(0, 10));
    const rows = (await q) as { status: string; n: string }[];
    return Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.status, Number(r.n)]));
  }

  async detail(merchantId: string, orderId: string): Promise<OrderDetail | undefined> {
    const [row] = await preparedBuilderRows<OrderRow>(
      this.knex,
      this.knex(orderTables.orders).where({ merchant_id: merchantId, order_id: orderId }).limit(1),
    );
    if (!row) return undefined;
    const history = await preparedBuilderRows<{
      event: string;
      event_timestamp: string;
      status: string | null;
      payment_status: string | null;
      applied_fields: string[];
      stale_fields: string[];
      early: boolean;
      received_at: Date;
    }>(
      this.knex,
      this.knex(orderTables.history)
        .where({ merchant_id: merchantId, order_id: orderId })
        // Webhooks of one millisecond in the order the decider ranks them (created, updated, cancelled), then as
        // recorded: the same history whatever the delivery order (docs/orders-ordering.md, "Ordering").
        .orderBy('event_timestamp', 'asc')
        .orderByRaw("CASE event WHEN 'order.created' THEN 0 WHEN 'order.updated' THEN 1 ELSE 2 END")
        .orderBy('position', 'asc'),
    );
    return {
      ...summaryOf(row),
      order: row.fields,
      history: history.map((h) => ({
        event: h.event,
        eventTimestamp: Number(h.event_timestamp),
        status: h.status,
        paymentStatus: h.payment_status,
        appliedFields: h.applied_fields,
        staleFields: h.stale_fields,
        early: h.early,
        receivedAt: h.received_at.toISOString(),
      })),
    };
  }

  async dailyStats(filter: DailyStatsFilter): Promise<DailyStat[]> {
    const q = this.knex(orderTables.daily)
      .select(this.knex.raw("to_char(day, 'YYYY-MM-DD') as day"), 'merchant_id', 'order_type', 'status', 'currency')
      .select('order_count', 'gmv')
      .whereBetween('day', [filter.from, filter.to])
      .andWhere('order_count', '<>', 0);
    if (filter.merchantId !== undefined) void q.where('merchant_id', filter.merchantId);
    if (filter.orderType !== undefined) void q.where('order_type', filter.orderType);
    if (filter.status !== undefined) void q.where('status', filter.status);
    const rows = (await q.orderBy(['day', 'merchant_id', 'order_type', 'status', 'currency'])) as {
      day: string;
      merchant_id: string;
      order_type: string;
      status: string;
      currency: string;
      order_count: string;
      gmv: string;
    }[];
    return rows.map((r) => ({
      day: r.day,
      merchantId: r.merchant_id,
      orderType: r.order_type,
      status: r.status,
      currency: r.currency,
      orderCount: Number(r.order_count),
      gmv: Number(r.gmv),
    }));
  }
}
