import type { Knex } from 'knex';
import {
  type CampaignCreated,
  type CampaignStatusChanged,
  type VoucherPoolCreated,
  deletionKeys,
} from '../../domain/shop/index.js';
import { guardedChanges } from '../shared/guarded-changes.js';
import { firstOfEach, physical, type PhysicalNames, type ProjectedEvent } from '../shared/projector.js';
import { campaigns, changes, pools, vocabulary, words } from './voucher-search-tables.js';
import { campaignName, displayTexts, poolText, wordsOf, type FoundWords } from './voucher-search-text.js';

/**
 * The statements of the search projector (voucher-search.ts): the search rows
 * of pools, the campaigns as far as those rows need them (copied onto the
 * rows of their pools in the same statement), the change mark, and the words
 * of the vocabularies. Redelivered events change nothing: inserts ignore
 * existing keys, updates apply only to rows whose last_position is older than
 * the event.
 */

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
export async function createPools(
  trx: Knex.Transaction,
  names: PhysicalNames,
  run: readonly ProjectedEvent[],
): Promise<void> {
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

/** Moves the change mark forward to the event's position (bindings: table, position, position). */
const markStatement = `UPDATE ?? SET last_change_position = ? WHERE last_change_position IS NULL OR last_change_position < ?`;

export async function markChange(trx: Knex.Transaction, names: PhysicalNames, position: string): Promise<void> {
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

export async function addWords(trx: Knex.Transaction, names: PhysicalNames, found: FoundWords): Promise<void> {
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
export async function advancePool(
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
export async function createCampaigns(
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
export async function changeStatuses(
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
export async function changeCampaign(
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
