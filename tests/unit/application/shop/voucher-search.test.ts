import { expect } from 'chai';
import { fixedClock } from '../../../../application/shared/clock.js';
import type { ShopVoucherResponse } from '../../../../application/shop/catalog-queries.js';
import {
  isKeywordTooShort,
  VoucherSearch,
  type VoucherSearchCriteria,
  type VoucherSearchReadModel,
} from '../../../../application/shop/voucher-search.js';
import { isDomainError } from '../../../../domain/shared/errors.js';

/** An in-memory read model: answers `ids` for every search and records the criteria it was given. */
class FakeReadModel implements VoucherSearchReadModel {
  searches: VoucherSearchCriteria[] = [];
  typoLookups: string[][] = [];
  ids = [1, 2, 3];
  current = 'v1';
  vocabulary = new Map<string, string[]>();
  failNext = false;
  private held: (() => void)[] = [];
  holding = false;

  async search(criteria: VoucherSearchCriteria) {
    this.searches.push(criteria);
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.failNext) {
      this.failNext = false;
      throw new Error('read model down');
    }
    return { poolIds: [...this.ids], total: 42 };
  }

  async typoCandidates(words: string[]) {
    this.typoLookups.push(words);
    return new Map(words.map((w) => [w, this.vocabulary.get(w) ?? []]));
  }

  async version() {
    return this.current;
  }

  /** Campaign window boundaries, as epoch ms. */
  boundaries: number[] = [];
  windowLookups = 0;

  async nextWindowChange(after: Date) {
    this.windowLookups++;
    const next = this.boundaries.filter((b) => b > after.getTime()).sort((a, b) => a - b)[0];
    return next === undefined ? null : new Date(next);
  }

  release() {
    this.holding = false;
    for (const resolve of this.held.splice(0)) resolve();
  }
}

/** The catalog's vouchersByIds as far as the search needs it: the ids, in order, as vouchers. */
const catalog = {
  requests: [] as { ids: number[]; userId?: string }[],
  async vouchersByIds(ids: number[], options: { userId?: string }) {
    this.requests.push({ ids, userId: options.userId });
    return ids.map((id) => ({ id }) as ShopVoucherResponse);
  },
};

const caller = { merchantId: 'M1', userId: 'u1' };
const query = (q: string, page = 0, size = 20) => ({ q, channel: 'APP' as const, page, size });
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('VoucherSearch', () => {
  let readModel: FakeReadModel;
  let clock: ReturnType<typeof fixedClock>;
  let search: VoucherSearch;

  beforeEach(() => {
    readModel = new FakeReadModel();
    clock = fixedClock('2026-06-01T00:00:00Z');
    catalog.requests = [];
    search = new VoucherSearch({ readModel, catalog, clock });
  });

  it('given a keyword, when searched, then the page holds the catalog vouchers of the ranked ids and the totals', async () => {
    const page = await search.search(query('Khuyến Mãi', 1, 20), caller);
    expect(page.content.map((v) => v.id)).to.deep.equal([1, 2, 3]);
    expect(page.page).to.deep.equal({ size: 20, number: 1, totalElements: 42, totalPages: 3 });
    expect(readModel.searches[0]).to.deep.include({ offset: 20, limit: 20, tags: undefined, now: clock.now() });
    expect(readModel.searches[0]!.terms.map((t) => [t.typed, t.folded])).to.deep.equal([
      ['khuyến', 'khuyen'],
      ['mãi', 'mai'],
    ]);
    expect(catalog.requests).to.deep.equal([{ ids: [1, 2, 3], userId: 'u1' }]);
  });

  it('given a keyword without letters or digits, when searched, then nothing is found and the read model is not asked', async () => {
    const page = await search.search(query('?!'), caller);
    expect(page).to.deep.equal({ content: [], page: { size: 20, number: 0, totalElements: 0, totalPages: 0 } });
    expect(readModel.searches).to.have.length(0);
  });

  it('given a keyword under 2 characters (code points, trimmed, NFC), when searched, then it is refused as too short', async () => {
    for (const q of ['', 'a', '  a  ', 'ế'.normalize('NFD'), '😀']) {
      const refusal = await search.search(query(q), caller).catch((e: unknown) => e);
      expect(isKeywordTooShort(refusal), JSON.stringify(q)).to.equal(true);
    }
    expect(readModel.searches).to.have.length(0);
  });

  it('given a keyword over 200 characters or 10 words, when searched, then it is refused as invalid, naming q', async () => {
    for (const [q, rule] of [
      ['a'.repeat(201), /at most 200 characters/],
      ['a b c d e f g h i j k', /at most 10 words/],
    ] as const) {
      const refusal = await search.search(query(q), caller).catch((e: unknown) => e);
      expect(isDomainError(refusal) && refusal.code).to.equal('INVALID_KEYWORD');
      expect((refusal as Error).message)
        .to.match(rule)
        .and.match(/^q /);
    }
    expect((await search.search(query('a b c d e f g h i j j j'), caller)).content).to.have.length(3); // repeated words count once
  });

  it('given vocabulary words near a long word, when searched, then only those one typo away are its alternatives', async () => {
    readModel.vocabulary.set('samsong', ['samsung', 'samsong', 'sasmung', 'samson']);
    await search.search(query('samsong pho'), caller);
    expect(readModel.typoLookups).to.deep.equal([['samsong']]); // "pho" is too short to forgive a typo
    expect(readModel.searches[0]!.terms.map((t) => t.typos)).to.deep.equal([['samsung', 'samson'], []]);
  });

  describe('the result cache', () => {
    it('given an identical search with no change to the read model and no campaign window passed, then the ids are reused', async () => {
      await search.search(query('highlands'), caller);
      clock.advance(24 * 3600_000);
      await search.search(query('highlands'), { merchantId: 'M1' });
      expect(readModel.searches).to.have.length(1);
      expect(catalog.requests).to.have.length(2); // vouchers are read afresh
    });

    it('given another page, tag or keyword spelling, then it is another search', async () => {
      await search.search(query('highlands'), caller);
      await search.search(query('highlands', 1), caller);
      await search.search({ ...query('highlands'), tags: ['HOT_DEAL'] }, caller);
      await search.search(query('highlánds'), caller);
      expect(readModel.searches).to.have.length(4);
    });

    it('given the read model changed, then the next search reads it again', async () => {
      await search.search(query('highlands'), caller);
      readModel.current = 'v2';
      readModel.ids = [9];
      const page = await search.search(query('highlands'), caller);
      expect(page.content.map((v) => v.id)).to.deep.equal([9]);
      expect(readModel.searches).to.have.length(2);
    });

    it('given a campaign window opens or closes, then the next search reads the read model again', async () => {
      const boundary = clock.now().getTime() + 60_000;
      readModel.boundaries = [boundary];
      await search.search(query('highlands'), caller);
      clock.set(new Date(boundary - 1));
      await search.search(query('highlands'), caller);
      expect(readModel.searches).to.have.length(1);
      clock.set(new Date(boundary));
      readModel.ids = [7];
      expect((await search.search(query('highlands'), caller)).content.map((v) => v.id)).to.deep.equal([7]);
      expect(readModel.searches).to.have.length(2);
      expect(readModel.windowLookups).to.equal(2); // once per stretch between changes, not per search
    });

    it('given the clock set back before the results were read, then they are read again', async () => {
      await search.search(query('highlands'), caller);
      clock.advance(-1);
      await search.search(query('highlands'), caller);
      expect(readModel.searches).to.have.length(2);
    });

    it('given concurrent identical searches, then they share one read', async () => {
      readModel.holding = true;
      const pending = [search.search(query('highlands'), caller), search.search(query('highlands'), caller)];
      await flush();
      readModel.release();
      await Promise.all(pending);
      expect(readModel.searches).to.have.length(1);
    });

    it('given a failed search, then the failure is not kept', async () => {
      readModel.failNext = true;
      let failure: unknown;
      await search.search(query('highlands'), caller).catch((e: unknown) => (failure = e));
      expect(failure).to.be.instanceOf(Error);
      expect((await search.search(query('highlands'), caller)).content).to.have.length(3);
    });

    it('given no cache entries, then every search reads the read model', async () => {
      search = new VoucherSearch({ readModel, catalog, clock }, { cacheEntries: 0 });
      await search.search(query('highlands'), caller);
      await search.search(query('highlands'), caller);
      expect(readModel.searches).to.have.length(2);
    });
  });
});
