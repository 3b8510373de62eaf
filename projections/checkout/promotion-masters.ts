/**
 * Promotion masters as analysts and the operator portal list them (docs/checkout.md, "Read models"). Eventually
 * consistent with the event store (projector lag at /metrics); operator commands answer from the aggregate.
 */
import type { Knex } from 'knex';
import { checkoutEventDecoder, type CheckoutEvent, type PromotionMasterEvent } from '../../domain/checkout/index.js';
import { physical, type PhysicalNames, type Projected, type Projector } from '../shared/projector.js';

const table = 'checkout_promotion_masters';

/** One row per promotion master. */
export const promotionMastersProjector: Projector = {
  name: 'checkout-promotion-masters',
  version: 2,
  eventTypes: new Set<PromotionMasterEvent['type']>(['PromotionMasterCreated', 'PromotionMasterStatusChanged']),
  decoder: checkoutEventDecoder,
  tables: [
    {
      name: table,
      comment:
        'Promotion masters of the promotion checkout, one row per master; eventually consistent with the event store (lag at /metrics). Fed by PromotionMasterCreated, PromotionMasterStatusChanged.',
      columns: {
        promotion_master_id: 'Promotion master id (promotion_master_id of the checkout interface).',
        title: 'Title shown to users.',
        short_title: 'Short title shown in tight places (breakdown of /reserve).',
        promotion_type: 'SHIPPING, VOUCHER or COIN_CASHBACK.',
        code_type: 'UNIQUE (one code per issued promotion) or SHARED (one code for everyone).',
        discount_type: 'PERCENTAGE or FIXED.',
        discount_percentage: 'Percent off the eligible subtotal (PERCENTAGE); null for FIXED.',
        max_discount: 'Most a PERCENTAGE discount takes off, in VND; null for FIXED.',
        discount_amount: 'Amount off, in VND (FIXED); null for PERCENTAGE.',
        min_order_value: 'Smallest order subtotal (VND) the promotion applies to.',
        scope: 'PLATFORM or MERCHANT.',
        merchant_id: 'The merchant of a MERCHANT-scoped promotion; null for PLATFORM.',
        categories: 'Item categories the discount is limited to; null: the whole subtotal.',
        valid_from: 'Start of validity.',
        valid_until: 'End of validity (exclusive).',
        per_user_limit: 'Uses allowed per user; null: no limit.',
        total_quota: 'Uses allowed in all; null: no limit.',
        pin_required: 'Whether issued promotions need a pin.',
        logo_url: 'Logo image URL; null when none.',
        banner_url: 'Banner image URL; null when none.',
        status: 'ACTIVE, PAUSED or ENDED.',
        created_at: 'When it was created.',
        created_by: 'Operator who created it.',
        last_position: 'Global position of the last event applied to this row.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const t = physical(names, table);
    await knex.schema.createTable(t, (b) => {
      b.bigInteger('promotion_master_id').primary();
      b.text('title').notNullable();
      b.text('short_title').notNullable();
      b.text('promotion_type').notNullable();
      b.text('code_type').notNullable();
      b.text('discount_type').notNullable();
      b.integer('discount_percentage');
      b.bigInteger('max_discount');
      b.bigInteger('discount_amount');
      b.bigInteger('min_order_value').notNullable();
      b.text('scope').notNullable();
      b.text('merchant_id');
      b.specificType('categories', 'text[]');
      b.timestamp('valid_from', { useTz: true }).notNullable();
      b.timestamp('valid_until', { useTz: true }).notNullable();
      b.integer('per_user_limit');
      b.integer('total_quota');
      b.boolean('pin_required').notNullable();
      b.text('logo_url');
      b.text('banner_url');
      b.text('status').notNullable();
      b.timestamp('created_at', { useTz: true }).notNullable();
      b.text('created_by');
      b.specificType('last_position', 'text COLLATE "C"').notNullable();
      b.index(['scope', 'merchant_id'], `${t}_scope`);
    });
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<CheckoutEvent>[], names: PhysicalNames) {
    const t = physical(names, table);
    for (const event of events) await applyOne(trx, t, event);
  },
};

async function applyOne(trx: Knex.Transaction, t: string, e: Projected<CheckoutEvent>): Promise<void> {
  switch (e.type) {
    case 'PromotionMasterCreated': {
      const d = e.data;
      const actor = e.metadata.actor as { operator?: string } | undefined;
      // A redelivered creation finds its row: the insert is ignored.
      await trx(t)
        .insert({
          promotion_master_id: d.promotionMasterId,
          title: d.title,
          short_title: d.shortTitle,
          promotion_type: d.promotionType,
          code_type: d.codeType,
          discount_type: d.discount.type,
          discount_percentage: d.discount.type === 'PERCENTAGE' ? d.discount.percentage : null,
          max_discount: d.discount.type === 'PERCENTAGE' ? d.discount.maxDiscount : null,
          discount_amount: d.discount.type === 'FIXED' ? d.discount.amount : null,
          min_order_value: d.minOrderValue,
          scope: d.scope.type,
          merchant_id: d.scope.type === 'MERCHANT' ? d.scope.merchantId : null,
          categories: d.categories,
          valid_from: d.validFrom,
          valid_until: d.validUntil,
          per_user_limit: d.perUserLimit,
          total_quota: d.totalQuota,
          pin_required: d.pinRequired,
          logo_url: d.logoUrl,
          banner_url: d.bannerUrl,
          status: d.status,
          created_at: d.createdAt,
          created_by: actor?.operator ?? null,
          last_position: e.position,
        })
        .onConflict('promotion_master_id')
        .ignore();
      return;
    }
    case 'PromotionMasterStatusChanged':
      await trx(t)
        .where({ promotion_master_id: e.data.promotionMasterId })
        .andWhere('last_position', '<', e.position)
        .update({ status: e.data.status, last_position: e.position });
      return;
    default:
      return;
  }
}
