import type { Knex } from 'knex';
import { physical, type PhysicalNames, type ReadModelTable } from '../shared/projector.js';

/**
 * The search projector's tables (voucher-search.ts): their logical names, the
 * comments analysts read, and the DDL of a generation. Columns and how the
 * search reads them: docs/shop-search.md.
 */

export const pools = 'shop_voucher_search';
export const campaigns = 'shop_voucher_search_campaigns';
export const words = 'shop_voucher_search_words';
export const vocabulary = 'shop_voucher_search_vocabulary';
export const changes = 'shop_voucher_search_changes';

const fed = (events: string) => `Eventually consistent with the event store (lag at /metrics). Fed by ${events}.`;
const padded = 'each part with a space at both ends, so that " word" finds the start of any word';
const wordsForm = `lower case, NFC, diacritics kept, words separated by single spaces, ${padded}`;
const foldedForm = `folded: lower case, no diacritics, đ as d, words separated by single spaces, ${padded}`;

/**
 * What makes a search row listable apart from the campaign window: the
 * predicate of the partial index of word keys, which the search repeats word
 * for word, as it does the indexed expression (infrastructure/shop/voucher-search-read-model.ts).
 */
const listedPredicate = `campaign_status = 'ACTIVE' AND campaign_type = 'SELL' AND NOT pool_deleted`;
const searchedKeys = '(pool_word_keys || campaign_name_word_keys)';
const keysForm =
  'keys (domain/shop/vietnamese-text.ts wordKey: 32-bit FNV-1a of the word) of the distinct folded words';

export const searchTables: readonly ReadModelTable[] = [
  {
    name: pools,
    comment: `Voucher pools as the shop search sees them, one row per pool: searched text lower-cased and folded (diacritics removed), the keys of its folded words, and what decides whether the pool is listed. GIN-indexed on pool_word_keys || campaign_name_word_keys for listed rows. ${fed('VoucherPoolCreated, VoucherPoolDisplayUpdated, VoucherPoolDeleted, CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated')}`,
    columns: {
      pool_id: 'Voucher pool id.',
      campaign_id: 'Campaign the pool belongs to.',
      pool_words: `Title, brand name and description of the pool (display.title, display.brandName, display.description), in that order, ${wordsForm}.`,
      words_title_end: 'Characters of pool_words that hold the title (1 to this).',
      words_brand_end:
        'Characters of pool_words up to the end of the brand name (words_title_end + 1 to this); the description follows.',
      pool_folded: `The same text ${foldedForm}.`,
      folded_title_end: 'Characters of pool_folded that hold the title.',
      folded_brand_end: 'Characters of pool_folded up to the end of the brand name.',
      campaign_name_words: `Campaign name, ${wordsForm}; '' until the campaign is known.`,
      campaign_name_folded: `Campaign name ${foldedForm}.`,
      pool_word_keys: `The ${keysForm} of pool_folded; the search finds candidate rows by them and checks each against the text.`,
      campaign_name_word_keys: `The ${keysForm} of campaign_name_folded; '{}' until the campaign is known.`,
      pool_deleted: 'True once the pool was deleted (soft delete); never listed then.',
      campaign_status:
        'Campaign status (DRAFT, APPROVED, ACTIVE, PAUSED, ENDED); null until the campaign is known. Listed only when ACTIVE.',
      campaign_type: 'Campaign type (e.g. SELL); listed only when SELL.',
      campaign_tag: 'Campaign tag (e.g. HOT_DEAL, FLASH_SALE), for the tag filter.',
      campaign_display_priority: 'Campaign display priority (1 = highest): orders equally ranked results.',
      campaign_start_at: 'Start of the campaign window; listed from then.',
      campaign_end_at: 'End of the campaign window; listed until before then.',
      updated_at: 'Time of the last event that changed the row (event time).',
      last_position:
        'Global position of the last event of the pool stream applied to this row; an event at or before it is not applied again.',
    },
  },
  {
    name: campaigns,
    comment: `Campaigns as far as the search rows of their pools need them, kept so that a pool projected after its campaign gets them too. ${fed('CampaignCreated, CampaignStatusChanged, CampaignDetailsUpdated')}`,
    columns: {
      campaign_id: 'Campaign id.',
      name_words: `Campaign name, ${wordsForm}.`,
      name_folded: `Campaign name ${foldedForm}.`,
      name_word_keys: `The ${keysForm} of name_folded.`,
      status: 'DRAFT, APPROVED, ACTIVE, PAUSED or ENDED.',
      type: 'Campaign type, e.g. SELL.',
      tag: 'Campaign tag, e.g. HOT_DEAL.',
      display_priority: 'Display priority, 1 = highest.',
      start_at: 'Start of the campaign window.',
      end_at: 'End of the campaign window.',
      updated_at: 'Time of the last event that changed the campaign (event time).',
      last_position:
        'Global position of the last event of the campaign stream applied to this row; an event at or before it is not applied again.',
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
    name: vocabulary,
    comment: `Every folded word ever seen in searched text (titles, brand names, descriptions, campaign names) with its key: a keyword word finds the keys of the words it starts here (word >= it and below it followed by U+10FFFF, in C collation). Only grows. ${fed('VoucherPoolCreated, VoucherPoolDisplayUpdated, CampaignCreated, CampaignDetailsUpdated')}`,
    columns: {
      word: 'A folded word (C collation: ordered by its UTF-8 bytes, so the words a prefix starts are one range).',
      word_key: `Its key (domain/shop/vietnamese-text.ts wordKey), as in pool_word_keys and campaign_name_word_keys of shop_voucher_search.`,
    },
  },
  {
    name: changes,
    comment: `One row: the position of the last event that changed what the search finds, so that cached results are reused until the next such change. ${fed('the events of shop_voucher_search')}`,
    columns: {
      last_change_position:
        'Global position of the last event that changed shop_voucher_search or its vocabulary; null before the first.',
    },
  },
];

/** Creates the physical tables named in `names`, empty. */
export async function createSearchTables(knex: Knex, names: PhysicalNames): Promise<void> {
  const p = physical(names, pools);
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
    b.specificType('pool_word_keys', 'integer[]').notNullable();
    b.specificType('campaign_name_word_keys', 'integer[]').notNullable();
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
  await knex.raw(`CREATE INDEX ?? ON ?? USING gin (${searchedKeys}) WHERE ${listedPredicate}`, [`${p}_word_keys`, p]);
  await knex.schema.createTable(physical(names, campaigns), (b) => {
    b.bigInteger('campaign_id').primary();
    b.text('name_words').notNullable();
    b.text('name_folded').notNullable();
    b.specificType('name_word_keys', 'integer[]').notNullable();
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
  await knex.schema.createTable(physical(names, vocabulary), (b) => {
    b.specificType('word', 'text COLLATE "C"').primary();
    b.integer('word_key').notNullable();
  });
  await knex.schema.createTable(physical(names, changes), (b) => {
    b.specificType('last_change_position', 'text COLLATE "C"');
  });
  await knex(physical(names, changes)).insert({ last_change_position: null });
}
