import { campaignCounts, categoryCounts, countsVersion, q, type TableFamily, type Tables } from './catalog-tables.js';

/**
 * The catalog's pool counts per campaign and per campaign and category, and
 * the counts version (shop_campaign_pool_counts,
 * shop_campaign_category_pool_counts, shop_catalog_counts_version): a table
 * family of the catalog projector (catalog.ts) with no statement of its own.
 * The counts derive from the listing rows and copy columns of the campaign
 * rows, so they move only in the same statement as the row they derive from:
 * the tails below end the statements of catalog-listings.ts and
 * catalog-campaigns.ts.
 */

export const countsFamily: TableFamily = {
  tables: [
    {
      name: campaignCounts,
      comment:
        'Voucher pool counts per campaign: the totals of the voucher listing and the voucherSummary of campaigns (narrow, so frequent updates stay cheap); eventually consistent (lag at /metrics). Derived from the rows of shop_voucher_listings, so fed by the same pool events; the campaign columns by CampaignCreated, CampaignStatusChanged and CampaignDetailsUpdated.',
      columns: {
        campaign_id: 'Campaign.',
        pool_count: 'Pools of the campaign that are not deleted.',
        in_stock_count: 'Of those, pools with remaining stock.',
        sold_quantity: 'Vouchers sold from pools of the campaign, deleted pools included.',
        status:
          "The campaign's status (copied from shop_campaigns, as are the next columns, so the listing's totals read this table alone); null until the campaign is projected.",
        type: "The campaign's type.",
        campaign_tag: "The campaign's tag.",
        display_priority: "The campaign's display priority.",
        start_at: "The campaign's window start.",
        end_at: "The campaign's window end.",
      },
    },
    {
      name: categoryCounts,
      comment:
        'Voucher pool counts per campaign and category: the totals of the voucher listing filtered by category; eventually consistent (lag at /metrics). Derived from the rows of shop_voucher_listings, so fed by the same pool events; the campaign columns by CampaignCreated, CampaignStatusChanged and CampaignDetailsUpdated.',
      columns: {
        campaign_id: 'Campaign.',
        category_id: 'Voucher category.',
        pool_count: 'Pools of the campaign in this category that are not deleted.',
        status:
          "The campaign's status (copied from shop_campaigns, as are the next columns, so the listing's totals read this table alone); null until the campaign is projected.",
        type: "The campaign's type.",
        campaign_tag: "The campaign's tag.",
        display_priority: "The campaign's display priority.",
        start_at: "The campaign's window start.",
        end_at: "The campaign's window end.",
      },
    },
    {
      name: countsVersion,
      comment:
        'One row: changes whenever the pool counts or the campaign columns of the two count tables change (not with sales), so readers can keep what they derived from them until then. Fed by the events of those tables: VoucherPoolCreated, VoucherPoolDeleted, VoucherPoolCategoryChanged, CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated.',
      columns: {
        epoch: 'Random per generation of the tables, so a version is never repeated by a rebuild.',
        version: 'Incremented at each such change.',
      },
    },
  ],

  createSql: (t) => `
      CREATE TABLE ${q(t.campaignCounts)} (
        campaign_id bigint PRIMARY KEY,
        pool_count integer NOT NULL,
        in_stock_count integer NOT NULL,
        sold_quantity bigint NOT NULL,
        status text,
        type text,
        campaign_tag text,
        display_priority integer,
        start_at timestamptz,
        end_at timestamptz
      );

      CREATE TABLE ${q(t.categoryCounts)} (
        campaign_id bigint NOT NULL,
        category_id bigint NOT NULL,
        pool_count integer NOT NULL,
        status text,
        type text,
        campaign_tag text,
        display_priority integer,
        start_at timestamptz,
        end_at timestamptz,
        PRIMARY KEY (campaign_id, category_id)
      );
      CREATE INDEX ${q(`${t.categoryCounts}_category`)} ON ${q(t.categoryCounts)} (category_id);

      CREATE TABLE ${q(t.countsVersion)} (epoch uuid NOT NULL, version bigint NOT NULL);
      INSERT INTO ${q(t.countsVersion)} VALUES (gen_random_uuid(), 0);
  `,
};

/** The campaign's columns the count tables carry, so that the listing's totals and page boundaries read one table. */
const copied = ['status', 'type', 'campaign_tag', 'display_priority', 'start_at', 'end_at'];
export const copiedColumns = copied.join(', ');
export const copiedFromCampaign = copied.map((column) => `c.${column}`).join(', ');
const setCopied = copied.map((column) => `${column} = c.${column}`).join(', ');

/** Bindings of the tails below: the count tables and the version table. */
export const countTables = (t: Tables) => [t.campaignCounts, t.categoryCounts, t.countsVersion];

/**
 * The tail of a statement whose CTE `changed` returns the campaign rows it
 * wrote (campaign_id and the copied columns), and `applied` the events that
 * changed them: copies those columns into the campaigns' rows of both count
 * tables, and moves the version once per event (bindings: countTables).
 */
export const copyIntoCounts = `,
  per_campaign AS (UPDATE ?? n SET ${setCopied} FROM changed c WHERE n.campaign_id = c.campaign_id),
  per_category AS (UPDATE ?? s SET ${setCopied} FROM changed c WHERE s.campaign_id = c.campaign_id)
  UPDATE ?? SET version = version + (SELECT count(*) FROM applied) WHERE EXISTS (SELECT 1 FROM applied)`;

/**
 * The tail of a statement whose CTE `delta(pool_id, campaign_id, category_id,
 * pools, in_stock, sold)` holds the change of listing rows' contributions: adds
 * it to the counts per campaign and per campaign and category (bindings:
 * countTables); a new count row takes the campaign's columns from its row
 * (bindings: campaigns table). The version moves once per pool whose change
 * moved a pool count, as many times as applying the events one by one would.
 */
export const addCounts = `,
  moved AS (
    SELECT campaign_id, category_id, sum(pools)::int AS pools, sum(in_stock)::int AS in_stock, sum(sold)::bigint AS sold
    FROM delta GROUP BY campaign_id, category_id
  ),
  campaign_counts AS (
    INSERT INTO ?? AS n (campaign_id, pool_count, in_stock_count, sold_quantity, ${copiedColumns})
    SELECT m.campaign_id, m.pools, m.in_stock, m.sold, ${copiedFromCampaign}
    FROM (
      SELECT campaign_id, sum(pools) AS pools, sum(in_stock) AS in_stock, sum(sold) AS sold FROM moved GROUP BY campaign_id
      HAVING sum(pools) <> 0 OR sum(in_stock) <> 0 OR sum(sold) <> 0
    ) m LEFT JOIN ?? c ON c.campaign_id = m.campaign_id
    ON CONFLICT (campaign_id) DO UPDATE SET pool_count = n.pool_count + EXCLUDED.pool_count,
      in_stock_count = n.in_stock_count + EXCLUDED.in_stock_count, sold_quantity = n.sold_quantity + EXCLUDED.sold_quantity
  ),
  category_counts AS (
    INSERT INTO ?? AS s (campaign_id, category_id, pool_count, ${copiedColumns})
    SELECT m.campaign_id, m.category_id, m.pools, ${copiedFromCampaign}
    FROM moved m LEFT JOIN ?? c ON c.campaign_id = m.campaign_id WHERE m.pools <> 0
    ON CONFLICT (campaign_id, category_id) DO UPDATE SET pool_count = s.pool_count + EXCLUDED.pool_count
  )
  UPDATE ?? SET version = version + steps.n
  FROM (SELECT count(DISTINCT pool_id) AS n FROM (SELECT pool_id FROM delta GROUP BY pool_id, campaign_id, category_id HAVING sum(pools) <> 0) p) steps
  WHERE steps.n > 0`;

/** Bindings of addCounts. */
export const addCountsTables = (t: Tables) => [
  t.campaignCounts,
  t.campaigns,
  t.categoryCounts,
  t.campaigns,
  t.countsVersion,
];
