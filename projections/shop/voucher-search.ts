import type { Knex } from 'knex';
import type { CampaignEvent } from '../../domain/shop/campaign.js';
import type { PoolDisplay, VoucherPoolEvent } from '../../domain/shop/events.js';
import { deletionKeys, fold, lowercaseWords, typoVocabulary } from '../../domain/shop/vietnamese-text.js';
import { physical, type PhysicalNames, type ProjectedEvent, type Projector } from '../shared/projector.js';

const pools = 'shop_voucher_search';
const campaigns = 'shop_voucher_search_campaigns';
const words = 'shop_voucher_search_words';
const changes = 'shop_voucher_search_changes';

const fed = (events: string) => `Eventually consistent with the event store (lag at /metrics). Fed by ${events}.`;
const padded = 'each part with a space at both ends, so that " word" finds the start of any word';
const wordsForm = `lower case, NFC, diacritics kept, words separated by single spaces, ${padded}`;
const foldedForm = `folded: lower case, no diacritics, đ as d, words separated by single spaces, ${padded}`;

/**
 * What makes a search row listable apart from the campaign window: the
 * predicate of the partial trigram index, which the search repeats word for
 * word, as it does the indexed expression (infrastructure/shop/voucher-search-read-model.ts).
 */
const listedPredicate = `campaign_status = 'ACTIVE' AND campaign_type = 'SELL' AND NOT pool_deleted`;
const searchedText = '(pool_folded || campaign_name_folded)';

const pad = (text: string) => ` ${text} `;
const codePoints = (text: string) => [...text].length;

/**
 * A pool's searched text in one of its forms: title, brand name and
 * description, each padded, in that order (the order of their ranking
 * weights), and where the title and the brand end (in characters).
 */
function poolForm(display: Pick<PoolDisplay, 'title' | 'brandName' | 'description'>, form: (text: string) => string) {
  const title = pad(form(display.title));
  const brand = pad(form(display.brandName));
  return { text: title + brand + pad(form(display.description)), titleEnd: codePoints(title), brandEnd: codePoints(title) + codePoints(brand) };
}

function poolText(display: Pick<PoolDisplay, 'title' | 'brandName' | 'description'>) {
  const words = poolForm(display, lowercaseWords);
  const folded = poolForm(display, fold);
  return {
    pool_words: words.text,
    words_title_end: words.titleEnd,
    words_brand_end: words.brandEnd,
    pool_folded: folded.text,
    folded_title_end: folded.titleEnd,
    folded_brand_end: folded.brandEnd,
  };
}

/**
 * The search read model of the shop's vouchers (endpoint 3): one row per
 * voucher pool with its searched text (title, brand, description, campaign
 * name) lower-cased and folded, and what decides whether it is listed; the
 * campaigns as far as pools need them (a pool may arrive before or after its
 * campaign); and the vocabulary the search finds typo candidates in. The
 * search rows hold only what the search reads, so that a scan over many
 * matches touches few pages.
 */
export const voucherSearchProjector: Projector = {
  name: 'shop-voucher-search',
  version: 1,
  tables: [
    {
      name: pools,
      comment: `Voucher pools as the shop search sees them, one row per pool: searched text lower-cased and folded (diacritics removed), and what decides whether the pool is listed. Trigram-indexed on pool_folded || campaign_name_folded for listed rows. ${fed('VoucherPoolCreated, VoucherPoolDisplayUpdated, VoucherPoolDeleted, CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated')}`,
      columns: {
        pool_id: 'Voucher pool id.',
        campaign_id: 'Campaign the pool belongs to.',
        pool_words: `Title, brand name and description of the pool (display.title, display.brandName, display.description), in that order, ${wordsForm}.`,
        words_title_end: 'Characters of pool_words that hold the title (1 to this).',
        words_brand_end: 'Characters of pool_words up to the end of the brand name (words_title_end + 1 to this); the description follows.',
        pool_folded: `The same text ${foldedForm}.`,
        folded_title_end: 'Characters of pool_folded that hold the title.',
        folded_brand_end: 'Characters of pool_folded up to the end of the brand name.',
        campaign_name_words: `Campaign name, ${wordsForm}; '' until the campaign is known.`,
        campaign_name_folded: `Campaign name ${foldedForm}.`,
        pool_deleted: 'True once the pool was deleted (soft delete); never listed then.',
        campaign_status: 'Campaign status (DRAFT, APPROVED, ACTIVE, PAUSED, ENDED); null until the campaign is known. Listed only when ACTIVE.',
        campaign_type: 'Campaign type (e.g. SELL); listed only when SELL.',
        campaign_tag: 'Campaign tag (e.g. HOT_DEAL, FLASH_SALE), for the tag filter.',
        campaign_display_priority: 'Campaign display priority (1 = highest): orders equally ranked results.',
        campaign_start_at: 'Start of the campaign window; listed from then.',
        campaign_end_at: 'End of the campaign window; listed until before then.',
        updated_at: 'Time of the last event that changed the row (event time).',
        last_position: 'Global position of the last event of the pool stream applied to this row; an event at or before it is not applied again.',
      },
    },
    {
      name: campaigns,
      comment: `Campaigns as far as the search rows of their pools need them, kept so that a pool projected after its campaign gets them too. ${fed('CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated')}`,
      columns: {
        campaign_id: 'Campaign id.',
        name_words: `Campaign name, ${wordsForm}.`,
        name_folded: `Campaign name ${foldedForm}.`,
        status: 'DRAFT, APPROVED, ACTIVE, PAUSED or ENDED.',
        type: 'Campaign type, e.g. SELL.',
        tag: 'Campaign tag, e.g. HOT_DEAL.',
        display_priority: 'Display priority, 1 = highest.',
        start_at: 'Start of the campaign window.',
        end_at: 'End of the campaign window.',
        updated_at: 'Time of the last event that changed the campaign (event time).',
        last_position: 'Global position of the last event of the campaign stream applied to this row; an event at or before it is not applied again.',
      },
    },
    {
      name: words,
      comment: `Vocabulary of the search's typo tolerance: every folded word of four or more letters ever seen in searched text, under itself and under each form with one letter left out. A keyword word finds the words one typo away through its own such forms. Only grows. ${fed('VoucherPoolCreated, VoucherPoolDisplayUpdated, CampaignCreated, CampaignDetailsUpdated')}`,
      columns: {
        deletion_key: 'The word itself, or the word with one letter left out.',
        word: 'A folded word of searched text.',
      },
    },
    {
      name: changes,
      comment: `One row: the position of the last event that changed what the search finds, so that cached results are reused until the next such change. ${fed('the events of shop_voucher_search')}`,
      columns: {
        last_change_position: 'Global position of the last event that changed shop_voucher_search or its vocabulary; null before the first.',
      },
    },
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
    const p = physical(names, pools);
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await knex.schema.createTable(p, (b) => {
      b.bigInteger('pool_id').primary();
      b.bigInteger('campaign_id').notNullable();
      b.text('pool_words').notNullable();
      b.integer('words_title_end').notNullable();
      b.integer('words_brand_end').notNullable();
      b.text('pool_folded').notNullable();
      b.integer('folded_title_end').notNullable();
      b.integer('folded_brand_end').notNullable();
      b.text('campaign_name_words').notNullable();
      b.text('campaign_name_folded').notNullable();
      b.boolean('pool_deleted').notNullable();
      b.text('campaign_status');
      b.text('campaign_type');
      b.text('campaign_tag');
      b.integer('campaign_display_priority');
      b.timestamp('campaign_start_at', { useTz: true });
      b.timestamp('campaign_end_at', { useTz: true });
      b.timestamp('updated_at', { useTz: true }).notNullable();
      b.specificType('last_position', 'text COLLATE "C" NOT NULL');
      b.index(['campaign_id'], `${p}_campaign`);
    });
    // Only rows that can be listed are indexed; the search repeats the predicate and the expression.
    await knex.raw(`CREATE INDEX ?? ON ?? USING gin (${searchedText} gin_trgm_ops) WHERE ${listedPredicate}`, [`${p}_text`, p]);
    await knex.schema.createTable(physical(names, campaigns), (b) => {
      b.bigInteger('campaign_id').primary();
      b.text('name_words').notNullable();
      b.text('name_folded').notNullable();
      b.text('status').notNullable();
      b.text('type').notNullable();
      b.text('tag').notNullable();
      b.integer('display_priority').notNullable();
      b.timestamp('start_at', { useTz: true }).notNullable();
      b.timestamp('end_at', { useTz: true }).notNullable();
      b.timestamp('updated_at', { useTz: true }).notNullable();
      b.specificType('last_position', 'text COLLATE "C" NOT NULL');
    });
    await knex.schema.createTable(physical(names, words), (b) => {
      b.text('deletion_key').notNullable();
      b.text('word').notNullable();
      b.primary(['deletion_key', 'word']);
    });
    await knex.schema.createTable(physical(names, changes), (b) => {
      b.specificType('last_change_position', 'text COLLATE "C"');
    });
    await knex(physical(names, changes)).insert({ last_change_position: null });
  },

  async apply(trx: Knex.Transaction, event: ProjectedEvent, names: PhysicalNames) {
    const e = { type: event.type, data: event.data } as VoucherPoolEvent | CampaignEvent;
    const { position } = event;
    switch (e.type) {
      case 'VoucherPoolCreated': {
        const d = e.data;
        const text = poolText(d.display);
        const row = { pool_id: d.poolId, campaign_id: d.campaignId, ...text, pool_deleted: false, updated_at: d.createdAt, last_position: position };
        const columns = Object.keys(row);
        // One statement: the row, with its campaign's fields if the campaign is known, the change mark and the new words.
        const { rows } = await trx.raw<{ rows: { word: string }[] }>(
          `WITH pool AS (
             INSERT INTO ?? (${columns.map(() => '??').join(', ')}, campaign_name_words, campaign_name_folded, campaign_status, campaign_type,
                             campaign_tag, campaign_display_priority, campaign_start_at, campaign_end_at)
             SELECT ${columns.map(() => '?').join(', ')}, coalesce(c.name_words, ''), coalesce(c.name_folded, ''), c.status, c.type,
                    c.tag, c.display_priority, c.start_at, c.end_at
             FROM (SELECT 1) one LEFT JOIN ?? c ON c.campaign_id = ?
             ON CONFLICT (pool_id) DO NOTHING
           ), mark AS (${markStatement}), ${newWordsStatement}
           SELECT word FROM new_words`,
          [
            physical(names, pools),
            ...columns,
            ...Object.values(row),
            physical(names, campaigns),
            d.campaignId,
            physical(names, changes),
            position,
            position,
            physical(names, words),
            typoVocabulary(text.pool_folded),
          ],
        );
        await addDeletionKeys(trx, names, rows);
        return;
      }
      case 'VoucherPoolDisplayUpdated': {
        const text = poolText(e.data.display);
        if (await advancePool(trx, names, e.data.poolId, position, { ...text, updated_at: e.data.updatedAt })) {
          await addWords(trx, names, typoVocabulary(text.pool_folded));
          await markChange(trx, names, position);
        }
        return;
      }
      case 'VoucherPoolDeleted':
        if (await advancePool(trx, names, e.data.poolId, position, { pool_deleted: true, updated_at: e.data.deletedAt }))
          await markChange(trx, names, position);
        return;
      case 'CampaignCreated': {
        const d = e.data;
        const name = campaignName(d.name);
        await trx(physical(names, campaigns))
          .insert({
            campaign_id: d.campaignId,
            ...name,
            status: d.status,
            type: d.type,
            tag: d.campaignTag,
            display_priority: d.displayPriority,
            start_at: d.startAt,
            end_at: d.endAt,
            updated_at: d.createdAt,
            last_position: position,
          })
          .onConflict('campaign_id')
          .ignore();
        await copyCampaignToPools(trx, names, d.campaignId, position);
        await addWords(trx, names, typoVocabulary(name.name_folded));
        return;
      }
      case 'CampaignStatusChanged':
        if (await advanceCampaign(trx, names, e.data.campaignId, position, { status: e.data.to, updated_at: e.data.changedAt }))
          await copyCampaignToPools(trx, names, e.data.campaignId, position);
        return;
      case 'CampaignDetailsUpdated': {
        const d = e.data;
        const name = campaignName(d.name);
        const changed = { ...name, tag: d.campaignTag, display_priority: d.displayPriority, start_at: d.startAt, end_at: d.endAt, updated_at: d.updatedAt };
        if (await advanceCampaign(trx, names, d.campaignId, position, changed)) {
          await copyCampaignToPools(trx, names, d.campaignId, position);
          await addWords(trx, names, typoVocabulary(name.name_folded));
        }
        return;
      }
      default:
        return;
    }
  },
};

/** Moves the change mark forward to the event's position (bindings: table, position, position). */
const markStatement = `UPDATE ?? SET last_change_position = ? WHERE last_change_position IS NULL OR last_change_position < ?`;

async function markChange(trx: Knex.Transaction, names: PhysicalNames, position: string): Promise<void> {
  await trx.raw(markStatement, [physical(names, changes), position, position]);
}

/** Inserts words not yet known under themselves; answers the new ones (rows of `word`). */
const newWordsStatement = `new_words AS (
  INSERT INTO ?? (deletion_key, word) SELECT w, w FROM unnest(?::text[]) w ON CONFLICT DO NOTHING RETURNING word
)`;

async function addWords(trx: Knex.Transaction, names: PhysicalNames, list: string[]): Promise<void> {
  if (list.length === 0) return;
  const { rows } = await trx.raw<{ rows: { word: string }[] }>(`WITH ${newWordsStatement} SELECT word FROM new_words`, [physical(names, words), list]);
  await addDeletionKeys(trx, names, rows);
}

/** Files words that are new to the vocabulary under each of their deletion keys. */
async function addDeletionKeys(trx: Knex.Transaction, names: PhysicalNames, added: { word: string }[]): Promise<void> {
  const keyed = added.flatMap(({ word }) => deletionKeys(word).map((key) => ({ deletion_key: key, word })));
  if (keyed.length > 0) await trx(physical(names, words)).insert(keyed).onConflict(['deletion_key', 'word']).ignore();
}

/** Applies a pool event's `changes` unless the row already has this event (or a later one); true if applied. */
async function advancePool(trx: Knex.Transaction, names: PhysicalNames, poolId: number, position: string, changed: Record<string, unknown>): Promise<boolean> {
  const updated = await trx(physical(names, pools))
    .where({ pool_id: poolId })
    .andWhere('last_position', '<', position)
    .update({ ...changed, last_position: position });
  return updated > 0;
}

/** The same for a campaign event on the campaign row. */
async function advanceCampaign(
  trx: Knex.Transaction,
  names: PhysicalNames,
  campaignId: number,
  position: string,
  changed: Record<string, unknown>,
): Promise<boolean> {
  const updated = await trx(physical(names, campaigns))
    .where({ campaign_id: campaignId })
    .andWhere('last_position', '<', position)
    .update({ ...changed, last_position: position });
  return updated > 0;
}

function campaignName(name: string) {
  return { name_words: pad(lowercaseWords(name)), name_folded: pad(fold(name)) };
}

/** Copies a campaign's fields onto the search rows of its pools, and marks the change if there were any. */
async function copyCampaignToPools(trx: Knex.Transaction, names: PhysicalNames, campaignId: number, position: string): Promise<void> {
  const { rowCount } = await trx.raw<{ rowCount: number }>(
    `UPDATE ?? p SET campaign_name_words = c.name_words, campaign_name_folded = c.name_folded, campaign_status = c.status,
       campaign_type = c.type, campaign_tag = c.tag, campaign_display_priority = c.display_priority,
       campaign_start_at = c.start_at, campaign_end_at = c.end_at, updated_at = greatest(p.updated_at, c.updated_at)
     FROM ?? c WHERE c.campaign_id = ? AND p.campaign_id = c.campaign_id`,
    [physical(names, pools), physical(names, campaigns), campaignId],
  );
  if (rowCount > 0) await markChange(trx, names, position);
}
