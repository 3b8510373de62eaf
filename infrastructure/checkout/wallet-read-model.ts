/**
 * The wallet read model (application/checkout/applicable.ts's port) on the checkout's tables: a user's promotions
 * joined with their masters and the uses taken against the masters' limits, in one query.
 */
import type { Knex } from 'knex';
import type { WalletEntry, WalletReadModel } from '../../application/checkout/index.js';
import { totalCounter, usesTable, walletTable } from '../../projections/checkout/index.js';
import { preparedRows } from '../shared/prepared-query.js';

const masters = 'checkout_promotion_masters';

interface Row {
  promotion_id: string;
  promotion_master_id: string;
  status: string;
  encrypted_code: string;
  encrypted_pin: string | null;
  valid_from: Date;
  valid_until: Date;
  title: string;
  short_title: string;
  promotion_type: string;
  code_type: string;
  discount_type: string;
  discount_percentage: number | null;
  max_discount: string | null;
  discount_amount: string | null;
  min_order_value: string;
  scope: string;
  merchant_id: string | null;
  categories: string[] | null;
  m_valid_from: Date;
  m_valid_until: Date;
  per_user_limit: number | null;
  total_quota: number | null;
  pin_required: boolean;
  logo_url: string | null;
  banner_url: string | null;
  m_status: string;
  total_uses: string;
  user_uses: string;
}

const id = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A prepared statement (infrastructure/shared/prepared-query.ts): planning it cost more than running it. */
const walletQuery = `SELECT w.promotion_id, w.promotion_master_id, w.status, w.encrypted_code, w.encrypted_pin, w.valid_from,
              w.valid_until, m.title, m.short_title, m.promotion_type, m.code_type, m.discount_type,
              m.discount_percentage, m.max_discount, m.discount_amount, m.min_order_value, m.scope, m.merchant_id,
              m.categories, m.valid_from AS m_valid_from, m.valid_until AS m_valid_until, m.per_user_limit,
              m.total_quota, m.pin_required, m.logo_url, m.banner_url, m.status AS m_status,
              (SELECT count(*) FROM ${id(usesTable)} u WHERE u.promotion_master_id = w.promotion_master_id AND u.counter = ?)
                AS total_uses,
              (SELECT count(*) FROM ${id(usesTable)} u WHERE u.promotion_master_id = w.promotion_master_id AND u.counter = w.user_id)
                AS user_uses
         FROM ${id(walletTable)} w JOIN ${id(masters)} m ON m.promotion_master_id = w.promotion_master_id
        WHERE w.user_id = ? AND w.status IN ('ISSUED', 'RESERVED', 'EXPIRED')
          AND (m.scope = 'PLATFORM' OR m.merchant_id = ?)
        ORDER BY w.valid_until DESC, w.promotion_id
        LIMIT ?`;

export class PostgresWalletReadModel implements WalletReadModel {
  constructor(private readonly knex: Knex) {}

  /** Only promotions usable at `merchantId` (domain/checkout/merchant-scope.ts's rule, as SQL). */
  async entries(userId: string, merchantId: string, limit: number): Promise<WalletEntry[]> {
    const rows = await preparedRows<Row>(this.knex, walletQuery, [totalCounter, userId, merchantId, limit]);
    return rows.map(entryOf);
  }
}

const iso = (d: Date) => d.toISOString();

function entryOf(r: Row): WalletEntry {
  const promotionMasterId = Number(r.promotion_master_id);
  return {
    promotion: {
      promotionId: Number(r.promotion_id),
      promotionMasterId,
      status: r.status as WalletEntry['promotion']['status'],
      validFrom: iso(r.valid_from),
      validUntil: iso(r.valid_until),
      encryptedCode: r.encrypted_code,
      encryptedPin: r.encrypted_pin,
    },
    master: {
      promotionMasterId,
      title: r.title,
      shortTitle: r.short_title,
      promotionType: r.promotion_type as WalletEntry['master']['promotionType'],
      codeType: r.code_type as WalletEntry['master']['codeType'],
      discount:
        r.discount_type === 'PERCENTAGE'
          ? { type: 'PERCENTAGE', percentage: r.discount_percentage!, maxDiscount: Number(r.max_discount) }
          : { type: 'FIXED', amount: Number(r.discount_amount) },
      minOrderValue: Number(r.min_order_value),
      scope: r.scope === 'MERCHANT' ? { type: 'MERCHANT', merchantId: r.merchant_id! } : { type: 'PLATFORM' },
      categories: r.categories,
      validFrom: iso(r.m_valid_from),
      validUntil: iso(r.m_valid_until),
      perUserLimit: r.per_user_limit,
      totalQuota: r.total_quota,
      pinRequired: r.pin_required,
      logoUrl: r.logo_url,
      bannerUrl: r.banner_url,
      status: r.m_status as WalletEntry['master']['status'],
    },
    usage: { total: Number(r.total_uses), byUser: Number(r.user_uses) },
  };
}
