import type { Knex } from 'knex';
import type { CampaignCreated, CampaignEvent, CampaignStatusChanged } from '../../domain/shop/campaign.js';
import { shopEventDecoder } from '../../domain/shop/event-decoder.js';
import type { PoolDisplay, ShopEvent, VoucherPoolCreated, VoucherPoolEvent } from '../../domain/shop/events.js';
import {
  deletionKeys,
  distinctWords,
  fold,
  inTypoVocabulary,
  lowercaseWords,
  wordKey,
} from '../../domain/shop/vietnamese-text.js';
import { guardedChanges } from '../shared/guarded-changes.js';
import {
  announceChanges,
  firstOfEach,
  physical,
  runs,
  type PhysicalNames,
  type Projected,
  type ProjectedEvent,
  type Projector,
} from '../shared/projector.js';

const pools = 'shop_voucher_search';
const campaigns = 'shop_voucher_search_campaigns';
const words = 'shop_voucher_search_words';
const vocabulary = 'shop_voucher_search_vocabulary';
const changes = 'shop_voucher_search_changes';

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

const pad = (text: string) => ` ${text} `;
const codePoints = (text: string) => [...text].length;

interface TextForms {
  /** Lower case with diacritics, padded; its length in characters. */
  words: string;
  wordsLength: number;
  /** Folded, padded; its length in characters. */
  folded: string;
  foldedLength: number;
  /** The distinct folded words, and their keys. */
  foldedWords: string[];
  foldedKeys: number[];
}

/**
 * The forms of texts seen lately: the pools of one brand, or of one bulk
 * import, share many of their texts (brand names above all), and working
 * them out is most of what a pool costs the projector. Cleared when full.
 */
const recentForms = new Map<string, TextForms>();

function forms(text: string): TextForms {
  let known = recentForms.get(text);
  if (known === undefined) {
    if (recentForms.size >= 20_000) recentForms.clear();
    const words = pad(lowercaseWords(text));
    const folded = pad(fold(text));
    const foldedWords = distinctWords(folded);
    known = {
      words,
      wordsLength: codePoints(words),
      folded,
      foldedLength: codePoints(folded),
      foldedWords,
      foldedKeys: foldedWords.map(wordKey),
    };
    recentForms.set(text, known);
  }
  return known;
}

/**
 * A pool's searched text in both forms: title, brand name and description,
 * each padded, in that order (the order of their ranking weights), where
 * the title and the brand end (in characters), and its words' keys.
 */
function poolText(display: Pick<PoolDisplay, 'title' | 'brandName' | 'description'>) {
  const title = forms(display.title);
  const brand = forms(display.brandName);
  const description = forms(display.description);
  return {
    pool_words: title.words + brand.words + description.words,
    words_title_end: title.wordsLength,
    words_brand_end: title.wordsLength + brand.wordsLength,
    pool_folded: title.folded + brand.folded + description.folded,
    folded_title_end: title.foldedLength,
    folded_brand_end: title.foldedLength + brand.foldedLength,
    pool_word_keys: [...new Set([...title.foldedKeys, ...brand.foldedKeys, ...description.foldedKeys])],
  };
}

/**
 * The search read model of the shop's vouchers (endpoint 3): one row per
 * voucher pool with its searched text (title, brand, description, campaign
 * name) lower-cased and folded, the keys of its words (the index), and what
 * decides whether it is listed; the campaigns as far as pools need them (a
 * pool may arrive before or after its campaign); every word with its key, for
 * prefixes; and the vocabulary the search finds typo candidates in. The
 * search rows hold only what the search reads, so that a scan over many
 * matches touches few pages.
 */
export const voucherSearchProjector: Projector = {
  name: 'shop-voucher-search',
  version: 2,
  eventTypes: new Set<(VoucherPoolEvent | CampaignEvent)['type']>([
    'VoucherPoolCreated',
    'VoucherPoolDisplayUpdated',
    'VoucherPoolDeleted',
    'CampaignCreated',
    'CampaignStatusChanged',
    'CampaignDetailsUpdated',
  ]),
  decoder: shopEventDecoder,
  tables: [
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
  ],

  async createTables(knex: Knex, names: PhysicalNames) {
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
  },

  async apply(trx: Knex.Transaction, events: readonly Projected<ShopEvent>[], names: PhysicalNames) {
    for (const run of runs(events, [poolRun, campaignRun])) {
      const type = run[0]!.type;
      if (poolRun.has(type)) await createPools(trx, names, run);
      else if (campaignRun.has(type)) await applyCampaignRun(trx, names, run);
      else await applyOne(trx, names, run[0]!);
    }
    // What the search finds may have changed: readers keeping the version (infrastructure/shop/voucher-search-read-model.ts)
    // read it again. Announced for every batch, redelivered ones too, rather than reading the version before and after
    // each batch: a needless announcement costs a reader one small read, those two reads cost every batch.
    await announceChanges(trx, voucherSearchProjector.name, new Set(['version']));
  },
};

/** Runs of these events are written in a statement or two (a bulk catalog import, a rebuild). */
const poolRun = new Set(['VoucherPoolCreated']);
const campaignRun = new Set(['CampaignCreated', 'CampaignStatusChanged']);

/**
 * Campaigns created and their status changes: the creations first, then the
 * status changes. That is the order of the log for each campaign (its
 * creation comes first; a creation seen after a change of its campaign is a
 * redelivery, which changes nothing), and different campaigns' events commute.
 */
async function applyCampaignRun(
  trx: Knex.Transaction,
  names: PhysicalNames,
  run: readonly ProjectedEvent[],
): Promise<void> {
  const created = run.filter((e) => e.type === 'CampaignCreated');
  const statusChanges = run.filter((e) => e.type === 'CampaignStatusChanged');
  if (created.length > 0) await createCampaigns(trx, names, created);
  if (statusChanges.length > 0) await changeStatuses(trx, names, statusChanges);
}

/** A pool's search row as VoucherPoolCreated makes it, but for its campaign's fields. */
function poolRow(d: VoucherPoolCreated['data'], position: string) {
  return {
    pool_id: d.poolId,
    campaign_id: d.campaignId,
    ...poolText(d.display),
    pool_deleted: false,
    updated_at: d.createdAt,
    last_position: position,
  };
}

/**
 * A run of VoucherPoolCreated in one statement: the rows of pools not there
 * yet (a pool already there, or twice in the run, keeps its first), each with
 * its campaign's fields if the campaign is known; the change mark; the
 * words of the vocabularies (then the new typo words' deletion keys).
 */
async function createPools(trx: Knex.Transaction, names: PhysicalNames, run: readonly ProjectedEvent[]): Promise<void> {
  const rows = firstOfEach(run, (e) => (e.data as VoucherPoolCreated['data']).poolId).map((e) =>
    poolRow(e.data as VoucherPoolCreated['data'], e.position),
  );
  const columns = Object.keys(rows[0]!);
  const latest = run.reduce((max, e) => (e.position > max ? e.position : max), run[0]!.position);
  const added = addingWords(
    names,
    wordsOf(run.flatMap((e) => displayTexts((e.data as VoucherPoolCreated['data']).display))),
  );
  const { rows: addedTypoWords } = await trx.raw<{ rows: { word: string }[] }>(
    `WITH pool AS (
       INSERT INTO ?? (${columns.join(', ')}, campaign_name_words, campaign_name_folded, campaign_name_word_keys, campaign_status, campaign_type,
                       campaign_tag, campaign_display_priority, campaign_start_at, campaign_end_at)
       SELECT ${columns.map((column) => `r.${column}`).join(', ')}, coalesce(c.name_words, ''), coalesce(c.name_folded, ''), coalesce(c.name_word_keys, '{}'),
              c.status, c.type, c.tag, c.display_priority, c.start_at, c.end_at
       FROM json_populate_recordset(NULL::??, ?::json) r LEFT JOIN ?? c ON c.campaign_id = r.campaign_id
       ON CONFLICT (pool_id) DO NOTHING
     ), mark AS (${markStatement}), ${added.sql}
     SELECT word FROM new_words`,
    [
      physical(names, pools),
      physical(names, pools),
      JSON.stringify(rows),
      physical(names, campaigns),
      physical(names, changes),
      latest,
      latest,
      ...added.bindings,
    ],
  );
  await addDeletionKeys(trx, names, addedTypoWords);
}

/** The folded words of texts, each once: all of them with their keys, and those a typo-tolerant keyword word can reach. */
interface FoundWords {
  all: string[];
  keys: number[];
  typo: string[];
}

function wordsOf(texts: string[]): FoundWords {
  const keyOf = new Map<string, number>();
  for (const text of texts) {
    const { foldedWords, foldedKeys } = forms(text);
    foldedWords.forEach((word, i) => keyOf.set(word, foldedKeys[i]!));
  }
  const all = [...keyOf.keys()];
  return { all, keys: [...keyOf.values()], typo: all.filter(inTypoVocabulary) };
}

const displayTexts = (display: Pick<PoolDisplay, 'title' | 'brandName' | 'description'>) => [
  display.title,
  display.brandName,
  display.description,
];

/** Any other event, on its own. */
async function applyOne(trx: Knex.Transaction, names: PhysicalNames, e: Projected<ShopEvent>): Promise<void> {
  const { position } = e;
  switch (e.type) {
    case 'VoucherPoolDisplayUpdated': {
      const text = poolText(e.data.display);
      if (await advancePool(trx, names, e.data.poolId, position, { ...text, updated_at: e.data.updatedAt })) {
        await addWords(trx, names, wordsOf(displayTexts(e.data.display)));
        await markChange(trx, names, position);
      }
      return;
    }
    case 'VoucherPoolDeleted':
      if (await advancePool(trx, names, e.data.poolId, position, { pool_deleted: true, updated_at: e.data.deletedAt }))
        await markChange(trx, names, position);
      return;
    case 'CampaignDetailsUpdated': {
      const d = e.data;
      const name = campaignName(d.name);
      const changed = {
        ...name,
        tag: d.campaignTag,
        display_priority: d.displayPriority,
        start_at: d.startAt,
        end_at: d.endAt,
        updated_at: d.updatedAt,
      };
      await changeCampaign(trx, names, d.campaignId, position, changed, wordsOf([d.name]));
      return;
    }
    default:
      return;
  }
}

/** Moves the change mark forward to the event's position (bindings: table, position, position). */
const markStatement = `UPDATE ?? SET last_change_position = ? WHERE last_change_position IS NULL OR last_change_position < ?`;

async function markChange(trx: Knex.Transaction, names: PhysicalNames, position: string): Promise<void> {
  await trx.raw(markStatement, [physical(names, changes), position, position]);
}

/**
 * Two CTEs that add `found` if `when` (SQL) holds: `vocabulary`, the words
 * not yet there with their keys; `new_words`, the typo words not yet known
 * under themselves, answering them (rows of `word`) for their deletion keys.
 */
function addingWords(
  names: PhysicalNames,
  found: FoundWords,
  when = 'true',
): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: `vocabulary AS (
       INSERT INTO ?? (word, word_key) SELECT w, k FROM unnest(?::text[], ?::integer[]) AS v(w, k) WHERE ${when} ON CONFLICT DO NOTHING
     ),
     new_words AS (
       INSERT INTO ?? (deletion_key, word) SELECT w, w FROM unnest(?::text[]) w WHERE ${when} ON CONFLICT DO NOTHING RETURNING word
     )`,
    bindings: [physical(names, vocabulary), found.all, found.keys, physical(names, words), found.typo],
  };
}

async function addWords(trx: Knex.Transaction, names: PhysicalNames, found: FoundWords): Promise<void> {
  if (found.all.length === 0) return;
  const added = addingWords(names, found);
  const { rows } = await trx.raw<{ rows: { word: string }[] }>(
    `WITH ${added.sql} SELECT word FROM new_words`,
    added.bindings,
  );
  await addDeletionKeys(trx, names, rows);
}

/** Files words that are new to the vocabulary under each of their deletion keys. */
async function addDeletionKeys(trx: Knex.Transaction, names: PhysicalNames, added: { word: string }[]): Promise<void> {
  const keyed = added.flatMap(({ word }) => deletionKeys(word).map((key) => ({ deletion_key: key, word })));
  if (keyed.length > 0) await trx(physical(names, words)).insert(keyed).onConflict(['deletion_key', 'word']).ignore();
}

/** Applies a pool event's `changes` unless the row already has this event (or a later one); true if applied. */
async function advancePool(
  trx: Knex.Transaction,
  names: PhysicalNames,
  poolId: number,
  position: string,
  changed: Record<string, unknown>,
): Promise<boolean> {
  const updated = await trx(physical(names, pools))
    .where({ pool_id: poolId })
    .andWhere('last_position', '<', position)
    .update({ ...changed, last_position: position });
  return updated > 0;
}

function campaignName(name: string) {
  const { words, folded, foldedWords } = forms(name);
  return { name_words: words, name_folded: folded, name_word_keys: foldedWords.map(wordKey) };
}

/** A campaign's row as CampaignCreated makes it. */
function campaignRow(d: CampaignCreated['data'], position: string) {
  return {
    campaign_id: d.campaignId,
    ...campaignName(d.name),
    status: d.status,
    type: d.type,
    tag: d.campaignTag,
    display_priority: d.displayPriority,
    start_at: d.startAt,
    end_at: d.endAt,
    updated_at: d.createdAt,
    last_position: position,
  };
}

/** A run of CampaignCreated in one statement: the campaigns not there yet (a campaign already there, or twice in the run, keeps its first). */
async function createCampaigns(
  trx: Knex.Transaction,
  names: PhysicalNames,
  run: readonly ProjectedEvent[],
): Promise<void> {
  const rows = firstOfEach(run, (e) => (e.data as CampaignCreated['data']).campaignId).map((e) =>
    campaignRow(e.data as CampaignCreated['data'], e.position),
  );
  const columns = Object.keys(rows[0]!).join(', ');
  const table = physical(names, campaigns);
  await changeCampaigns(
    trx,
    names,
    `changed AS (
       INSERT INTO ?? (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::??, ?::json) ON CONFLICT (campaign_id) DO NOTHING RETURNING *
     ),
     applied AS (SELECT campaign_id, last_position AS position, updated_at FROM changed)`,
    [table, table, JSON.stringify(rows)],
    wordsOf(run.map((e) => (e.data as CampaignCreated['data']).name)),
  );
}

/** A run of CampaignStatusChanged in one statement, as applying them one by one (guardedChanges). */
async function changeStatuses(
  trx: Knex.Transaction,
  names: PhysicalNames,
  run: readonly ProjectedEvent[],
): Promise<void> {
  const statusChanges = run.map((e, ordinal) => {
    const d = e.data as CampaignStatusChanged['data'];
    return { ordinal, campaign_id: d.campaignId, position: e.position, status: d.to, updated_at: d.changedAt };
  });
  const table = physical(names, campaigns);
  await changeCampaigns(
    trx,
    names,
    `${guardedChanges({ key: 'campaign_id', keyType: 'bigint' }, { status: 'text', updated_at: 'timestamptz' })},
     changed AS (
       UPDATE ?? c SET status = l.status, updated_at = l.updated_at, last_position = l.position FROM latest l WHERE c.campaign_id = l.campaign_id
       RETURNING c.*
     )`,
    [JSON.stringify(statusChanges), table, table],
    wordsOf([]),
  );
}

/** Applies a campaign event's `changes` unless the row already has this event (or a later one). */
async function changeCampaign(
  trx: Knex.Transaction,
  names: PhysicalNames,
  campaignId: number,
  position: string,
  changed: Record<string, string | number | number[]>,
  newWordsOfIt: FoundWords,
): Promise<void> {
  const columns = Object.keys(changed);
  await changeCampaigns(
    trx,
    names,
    `changed AS (
       UPDATE ?? SET ${columns.map(() => '?? = ?').join(', ')}, last_position = ? WHERE campaign_id = ? AND last_position < ? RETURNING *
     ),
     applied AS (SELECT campaign_id, last_position AS position, updated_at FROM changed)`,
    [
      physical(names, campaigns),
      ...columns.flatMap((column) => [column, changed[column]!]),
      position,
      campaignId,
      position,
    ],
    newWordsOfIt,
  );
}

/**
 * One statement around `write`, CTEs `changed` (the campaign rows it wrote)
 * and `applied` (campaign_id, position, updated_at of each event that changed
 * them): copies the campaigns' fields onto the search rows of their pools
 * (updated_at: the latest of the row's and the events'), moves the change mark
 * to the last of those events whose campaign has pools, and, if it wrote any,
 * adds `found` to the vocabularies (then the new typo words' deletion keys).
 */
async function changeCampaigns(
  trx: Knex.Transaction,
  names: PhysicalNames,
  write: string,
  bindings: Knex.RawBinding[],
  found: FoundWords,
): Promise<void> {
  const added = addingWords(names, found, 'EXISTS (SELECT 1 FROM changed)');
  const { rows } = await trx.raw<{ rows: { word: string }[] }>(
    `WITH ${write},
     copied AS (
       UPDATE ?? p SET campaign_name_words = c.name_words, campaign_name_folded = c.name_folded, campaign_name_word_keys = c.name_word_keys,
         campaign_status = c.status,
         campaign_type = c.type, campaign_tag = c.tag, campaign_display_priority = c.display_priority,
         campaign_start_at = c.start_at, campaign_end_at = c.end_at, updated_at = greatest(p.updated_at, a.updated_at)
       FROM changed c JOIN (SELECT campaign_id, max(position) AS position, max(updated_at) AS updated_at FROM applied GROUP BY campaign_id) a USING (campaign_id)
       WHERE p.campaign_id = c.campaign_id
       RETURNING a.position
     ),
     mark AS (
       UPDATE ?? SET last_change_position = m.position FROM (SELECT max(position) AS position FROM copied) m
       WHERE m.position IS NOT NULL AND (last_change_position IS NULL OR last_change_position < m.position)
     ),
     ${added.sql}
     SELECT word FROM new_words`,
    [...bindings, physical(names, pools), physical(names, changes), ...added.bindings],
  );
  await addDeletionKeys(trx, names, rows);
}
