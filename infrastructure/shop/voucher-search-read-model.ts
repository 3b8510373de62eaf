import type { Knex } from 'knex';
import type { RankedTerm, VoucherSearchCriteria, VoucherSearchReadModel } from '../../application/shop/index.js';
import { deletionKeys, wordKey } from '../../domain/shop/index.js';
import { preparedRows } from '../shared/prepared-query.js';
import { ChangeTrackedCache, type ChangeSource } from '../shared/read-model-changes.js';

/** Tables of projections/shop/voucher-search.ts. */
const pools = 'shop_voucher_search';
const words = 'shop_voucher_search_words';
const changes = 'shop_voucher_search_changes';
const campaigns = 'shop_voucher_search_campaigns';
const vocabulary = 'shop_voucher_search_vocabulary';

/** Ranking weights of the searched fields (application/shop/voucher-search.ts). */
const weight = { title: 4, campaignName: 3, brand: 2, description: 1 };
const exactScore = 20;
const foldedScore = 10;

// Word for word the projector's partial index: its predicate and its expression.
const listed = `campaign_status = 'ACTIVE' AND campaign_type = 'SELL' AND NOT pool_deleted`;
const searchedKeys = '(pool_word_keys || campaign_name_word_keys)';
const searchedText = '(pool_folded || campaign_name_folded)';
/** Above every word that starts with a given one, in C collation (UTF-8 byte order). */
const afterEveryCharacter = '\u{10FFFF}';

/** Patterns for the start of a word, and for a whole word (the stored text is padded with spaces). */
const wordStart = (word: string) => ` ${word}`;
const wholeWord = (word: string) => ` ${word} `;

/**
 * The search over the shop_voucher_search read model. Every term's folded
 * form must start a word, or one of its typo alternatives be a word,
 * somewhere in the pool's or its campaign's text. Candidates come from the
 * index of word keys: the keys of the vocabulary's words that the term starts
 * (a range of the vocabulary), and those of its typo alternatives; each is
 * then checked against the text itself, which also drops a word that only
 * shares a key. The rank is computed on the candidates from the stored
 * forms, nothing is folded per row: the pool's text holds title, brand and
 * description in the order of their weights, so the first place a term is
 * found in it is its best field there.
 */
export class PostgresVoucherSearchReadModel implements VoucherSearchReadModel {
  /** The version last read, under `version`, kept until the projector announces it moved. */
  private readonly versions: ChangeTrackedCache<string>;

  /** `changes`: the announcements of `projector` (projections/shop/voucher-search.ts). */
  constructor(
    private readonly knex: Knex,
    changes: ChangeSource,
    projector: string,
  ) {
    this.versions = new ChangeTrackedCache(changes, projector, 1000);
  }

  /** Planned afresh each time (not prepared), as its shape depends on the terms; VoucherSearch reuses the answer while the read model stays the same. */
  async search(criteria: VoucherSearchCriteria): Promise<{ poolIds: number[]; total: number }> {
    const bindings: unknown[] = [];
    // Placeholders are numbered in the order bind() is called: the text is built from left to right.
    const bind = (value: unknown) => {
      bindings.push(value);
      return '?';
    };
    const positions = criteria.terms.map((t, i) => termPositions(t, i, bind)).join(',\n');
    const now = criteria.now.toISOString();
    const sql = `
      WITH matches AS MATERIALIZED (
        SELECT pool_id, priority, ${criteria.terms.map(termScore).join(' + ')} AS score
        FROM (
          SELECT pool_id, campaign_display_priority AS priority, words_title_end, words_brand_end, folded_title_end, folded_brand_end,
                 ${positions}
          FROM ${pools}
          WHERE ${listed} AND campaign_start_at <= ${bind(now)} AND campaign_end_at > ${bind(now)}
            ${criteria.tags === undefined ? '' : `AND campaign_tag = ANY(${bind(criteria.tags)}::text[])`}
            AND ${criteria.terms.map((t) => termCondition(t, bind)).join(' AND ')}
          OFFSET 0
        ) candidates
      )
      SELECT (SELECT count(*) FROM matches)::int AS total,
             coalesce((SELECT array_agg(pool_id ORDER BY score DESC, priority, pool_id)
                       FROM (SELECT pool_id, score, priority FROM matches ORDER BY score DESC, priority, pool_id
                             LIMIT ${bind(criteria.limit)} OFFSET ${bind(criteria.offset)}) page), '{}') AS pool_ids`;
    const { rows } = await this.knex.raw<{ rows: { total: number; pool_ids: (number | string)[] }[] }>(
      sql,
      bindings as Knex.RawBinding[],
    );
    const [row] = rows;
    return { total: row!.total, poolIds: row!.pool_ids.map(Number) };
  }

  async typoCandidates(list: string[]): Promise<Map<string, string[]>> {
    const looked: string[] = [];
    const keys: string[] = [];
    for (const word of list) {
      for (const key of [word, ...deletionKeys(word)]) {
        looked.push(word);
        keys.push(key);
      }
    }
    const rows = await preparedRows<{ looked: string; word: string }>(
      this.knex,
      `SELECT DISTINCT k.looked, w.word FROM unnest(?::text[], ?::text[]) AS k(looked, key) JOIN ${words} w ON w.deletion_key = k.key`,
      [looked, keys],
    );
    const found = new Map<string, string[]>(list.map((w) => [w, []]));
    for (const row of rows) found.get(row.looked)!.push(row.word);
    return found;
  }

  async nextWindowChange(after: Date): Promise<Date | null> {
    const [row] = await preparedRows<{ next: Date | null }>(
      this.knex,
      `SELECT least(min(start_at) FILTER (WHERE start_at > ?), min(end_at) FILTER (WHERE end_at > ?)) AS next FROM ${campaigns}
       WHERE status = 'ACTIVE' AND type = 'SELL'`,
      [after, after],
    );
    return row?.next ?? null;
  }

  async version(): Promise<string> {
    const kept = this.versions.get('version');
    if (kept !== undefined) return kept;
    const mark = this.versions.mark();
    const [row] = await preparedRows<{ last_change_position: string | null }>(
      this.knex,
      `SELECT last_change_position FROM ${changes}`,
      [],
    );
    const version = row?.last_change_position ?? '';
    this.versions.put('version', version, mark);
    return version;
  }
}

/**
 * Rows whose text has a word the term starts, or one of its typo
 * alternatives: by their words' keys (the index), then by the text.
 */
function termCondition(term: RankedTerm, bind: (value: unknown) => string): string {
  const started = `ARRAY(SELECT word_key FROM ${vocabulary} WHERE word >= ${bind(term.folded)} AND word < ${bind(term.folded + afterEveryCharacter)})`;
  const keys = term.typos.length === 0 ? started : `(${started} || ${bind(term.typos.map(wordKey))}::integer[])`;
  const patterns = [`%${wordStart(term.folded)}%`, ...term.typos.map((w) => `%${wholeWord(w)}%`)];
  return `(${searchedKeys} && ${keys} AND (${patterns.map((p) => `${searchedText} LIKE ${bind(p)}`).join(' OR ')}))`;
}

/**
 * Where term i is found, computed once per candidate (the subquery's OFFSET 0
 * keeps the planner from copying these expressions into every use):
 * e<i>/f<i> the position of its typed/folded form in the pool's text (0: not
 * there), ce<i>/cf<i> whether the campaign name has it, t<i>/ct<i> the same
 * for its typo alternatives (t<i> null: none there).
 */
function termPositions(term: RankedTerm, i: number, bind: (value: unknown) => string): string {
  const columns = [
    `strpos(pool_words, ${bind(wordStart(term.typed))}) AS e${i}`,
    `strpos(campaign_name_words, ${bind(wordStart(term.typed))}) > 0 AS ce${i}`,
    `strpos(pool_folded, ${bind(wordStart(term.folded))}) AS f${i}`,
    `strpos(campaign_name_folded, ${bind(wordStart(term.folded))}) > 0 AS cf${i}`,
  ];
  if (term.typos.length > 0) {
    const alternatives = term.typos.map(wholeWord);
    columns.push(`LEAST(${alternatives.map((a) => `NULLIF(strpos(pool_folded, ${bind(a)}), 0)`).join(', ')}) AS t${i}`);
    columns.push(`campaign_name_folded LIKE ANY(${bind(alternatives.map((a) => `%${a}%`))}::text[]) AS ct${i}`);
  }
  return columns.join(', ');
}

/** The weight of the pool field holding position p of the pool's text, in one form (words or folded); 0 for no position. */
const poolFieldWeight = (p: string, form: 'words' | 'folded') =>
  `CASE WHEN coalesce(${p}, 0) = 0 THEN 0 WHEN ${p} <= ${form}_title_end THEN ${weight.title} WHEN ${p} <= ${form}_brand_end THEN ${weight.brand} ELSE ${weight.description} END`;
const campaignWeight = (found: string) => `CASE WHEN ${found} THEN ${weight.campaignName} ELSE 0 END`;

/**
 * A term's score: the best field where its typed form starts a word
 * (exactScore + weight), else where its folded form does (foldedScore +
 * weight), else where a typo alternative is a word (weight), else 0.
 */
function termScore(term: RankedTerm, i: number): string {
  const typo =
    term.typos.length > 0
      ? `WHEN t${i} IS NOT NULL OR ct${i} THEN GREATEST(${poolFieldWeight(`t${i}`, 'folded')}, ${campaignWeight(`ct${i}`)}) `
      : '';
  return (
    `(CASE WHEN e${i} > 0 OR ce${i} THEN ${exactScore} + GREATEST(${poolFieldWeight(`e${i}`, 'words')}, ${campaignWeight(`ce${i}`)}) ` +
    `WHEN f${i} > 0 OR cf${i} THEN ${foldedScore} + GREATEST(${poolFieldWeight(`f${i}`, 'folded')}, ${campaignWeight(`cf${i}`)}) ` +
    `${typo}ELSE 0 END)`
  );
}
