import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  call,
  expectOk,
  expectRefusal,
  OperatorApi,
  poolInput,
  type CampaignData,
  type PoolData,
  type ShopMerchant,
} from '../support.js';
import { CatalogClient, campaignIn, live, projectionsCaughtUp, type VoucherPage } from './catalog-support.js';
import { eventually } from '../../support/eventually.js';

/**
 * GET /api/v1/vouchers/search over HTTP; the clock stands at 2026-06-01.
 * Campaigns on sale: "Mùa hè rực rỡ" (HOT_DEAL, priority 1) and "Siêu sale
 * điện thoại" (FLASH_SALE, priority 2); 25 "Combo" pools for paging in a third.
 */
describe('Shop search over HTTP: GET /vouchers/search', () => {
  const clock = fixedClock('2026-06-01T00:00:00.000Z');
  let app: TestApp;
  let operator: OperatorApi;
  let merchant: ShopMerchant;
  let shop: CatalogClient;
  let summer: CampaignData, phones: CampaignData;
  const pool: Record<string, PoolData> = {};

  async function poolWith(
    campaignId: number,
    display: { title: string; brandName?: string; description?: string },
  ): Promise<PoolData> {
    const base = poolInput(campaignId);
    const json = {
      ...base,
      display: { ...base.display, brandName: 'Cửa hàng', description: 'Áp dụng toàn quốc', ...display },
    };
    return expectOk(await operator.call<PoolData>('POST', '/voucher-pools', { json }), 201);
  }

  /** The search answer for a raw (already encoded) query string, after the projections caught up. */
  async function searchRaw(rawQuery: string, userId?: string) {
    await projectionsCaughtUp(app);
    return shop.get<VoucherPage>(`/vouchers/search?${rawQuery}`, userId);
  }

  async function ids(q: string, extra = ''): Promise<number[]> {
    const page = expectOk(await searchRaw(`q=${encodeURIComponent(q)}${extra}`));
    return page.content.map((v) => v.id);
  }

  before(async () => {
    app = await startTestApp({ clock });
    operator = new OperatorApi(app.baseUrl);
    merchant = await operator.createMerchant();
    shop = new CatalogClient(app, merchant);
    summer = await campaignIn(operator, live, { name: 'Mùa hè rực rỡ', campaignTag: 'HOT_DEAL', displayPriority: 1 });
    phones = await campaignIn(operator, live, {
      name: 'Siêu sale điện thoại',
      campaignTag: 'FLASH_SALE',
      displayPriority: 2,
    });
    pool.tea = await poolWith(summer.id, { title: 'Khuyến mãi trà sữa', brandName: 'Phúc Long' });
    pool.teaPlain = await poolWith(summer.id, { title: 'Khuyen mai tra sua', brandName: 'Gong Cha' });
    pool.galaxy = await poolWith(phones.id, { title: 'Samsung Galaxy giảm 1.000.000đ', brandName: 'Điện Máy Xanh' });
    pool.gift = await poolWith(phones.id, { title: 'Phiếu mua hàng', brandName: 'Samsung' });
    pool.fpt = await poolWith(phones.id, {
      title: 'Phiếu quà tặng',
      brandName: 'FPT Shop',
      description: 'Áp dụng cho máy Samsung',
    });
    const combos = await campaignIn(operator, live, { name: 'Ẩm thực', campaignTag: 'HOT_DEAL', displayPriority: 3 });
    for (let i = 1; i <= 25; i++)
      pool[`combo${i}`] = await poolWith(combos.id, { title: `Combo gà rán ${i}`, brandName: 'Jollibee' });
  });
  after(() => app?.stop());

  it('answers a page of full ShopVoucherResponse, with the caller’s purchases when X-User-Id is sent', async () => {
    const page = expectOk(await searchRaw(`q=${encodeURIComponent('galaxy')}`, 'user-1'));
    expect(page.page).to.deep.equal({ size: 20, number: 0, totalElements: 1, totalPages: 1 });
    const [v] = page.content;
    expect(v).to.deep.include({ id: pool.galaxy!.poolId, categoryId: 1 });
    expect(v!.campaign).to.deep.include({
      id: phones.id,
      name: 'Siêu sale điện thoại',
      tag: 'FLASH_SALE',
      displayPriority: 2,
    });
    expect(v!.display.title).to.equal('Samsung Galaxy giảm 1.000.000đ');
    expect(v!.inventory).to.deep.equal({ totalQuantity: 100, remainingQuantity: 100, isOutOfStock: false });
    expect(v!.userPurchaseUsage).to.deep.equal({
      dailyPurchasedQty: 0,
      totalPurchasedQty: 0,
      dailyRemaining: null,
      totalRemaining: null,
    });
  });

  it('finds Vietnamese text whatever the diacritics, case and Unicode normalisation of the keyword', async () => {
    expect(await ids('khuyen mai')).to.deep.equal([pool.teaPlain!.poolId, pool.tea!.poolId]);
    expect(await ids('KHUYẾN MÃI')).to.deep.equal([pool.tea!.poolId, pool.teaPlain!.poolId]);
    expect(await ids('khuyến mãi'.normalize('NFD'))).to.deep.equal([pool.tea!.poolId, pool.teaPlain!.poolId]);
    expect(await ids('dien thoai')).to.have.members([pool.galaxy!.poolId, pool.gift!.poolId, pool.fpt!.poolId]); // the campaign name
  });

  it('reads a percent-encoded UTF-8 keyword, "+" as a space', async () => {
    const nfd = encodeURIComponent('khuyến mãi'.normalize('NFD'));
    expect(nfd).to.match(/%CC%81/); // combining acute accent: really decomposed
    expect(expectOk(await searchRaw(`q=${nfd}`)).content.map((v) => v.id)).to.deep.equal([
      pool.tea!.poolId,
      pool.teaPlain!.poolId,
    ]);
    expect(expectOk(await searchRaw('q=khuyen+mai')).page.totalElements).to.equal(2);
  });

  it('ranks title above brand above description', async () => {
    expect(await ids('samsung')).to.deep.equal([pool.galaxy!.poolId, pool.gift!.poolId, pool.fpt!.poolId]);
  });

  it('finds words as the user types them, and forgives one typo in words of five letters or more', async () => {
    expect(await ids('sams')).to.deep.equal([pool.galaxy!.poolId, pool.gift!.poolId, pool.fpt!.poolId]);
    expect(await ids('smasung')).to.deep.equal([pool.galaxy!.poolId, pool.gift!.poolId, pool.fpt!.poolId]);
    expect(await ids('galxy')).to.deep.equal([pool.galaxy!.poolId]);
    expect(await ids('smas')).to.deep.equal([]);
  });

  it('filters by campaign tag; tags (any of) wins over tag', async () => {
    expect(await ids('phieu', '&tag=FLASH_SALE')).to.deep.equal([pool.gift!.poolId, pool.fpt!.poolId]);
    expect(await ids('phieu', '&tag=HOT_DEAL')).to.deep.equal([]);
    expect(await ids('phieu', '&tag=HOT_DEAL&tags=NEW,FLASH_SALE')).to.deep.equal([
      pool.gift!.poolId,
      pool.fpt!.poolId,
    ]);
    expect(await ids('phieu', '&tag=FLASH_SALE&tags=HOT_DEAL')).to.deep.equal([]);
    expectRefusal(await searchRaw('q=phieu&tag=hot%20deal'), 400, 'SHOP-REQ-001', /tag/);
  });

  it('pages: default size 20, size clamped to 100, a page beyond the last is empty with the totals', async () => {
    const first = expectOk(await searchRaw('q=combo'));
    expect(first.content).to.have.length(20);
    expect(first.page).to.deep.equal({ size: 20, number: 0, totalElements: 25, totalPages: 2 });
    const second = expectOk(await searchRaw('q=combo&page=1'));
    expect(second.content.map((v) => v.id)).to.deep.equal([21, 22, 23, 24, 25].map((i) => pool[`combo${i}`]!.poolId));
    const all = expectOk(await searchRaw('q=combo&size=500'));
    expect(all.page).to.deep.equal({ size: 100, number: 0, totalElements: 25, totalPages: 1 });
    const beyond = expectOk(await searchRaw('q=combo&page=9&size=10'));
    expect(beyond).to.deep.equal({ content: [], page: { size: 10, number: 9, totalElements: 25, totalPages: 3 } });
    const farBeyond = expectOk(await searchRaw('q=combo&page=10000000000000000000000&size=10000000000000000000000'));
    expect(farBeyond).to.deep.equal({
      content: [],
      page: { size: 100, number: Number.MAX_SAFE_INTEGER, totalElements: 25, totalPages: 1 },
    });
  });

  it('refuses paging and channel values that do not fit with SHOP-REQ-001 naming the parameter', async () => {
    expectRefusal(await searchRaw('q=combo&page=-1'), 400, 'SHOP-REQ-001', /page/);
    expectRefusal(await searchRaw('q=combo&size=0'), 400, 'SHOP-REQ-001', /size/);
    expectRefusal(await searchRaw('q=combo&size=1.5'), 400, 'SHOP-REQ-001', /size/);
    expectRefusal(await searchRaw('q=combo&channel=TV'), 400, 'SHOP-REQ-001', /channel/);
    expect(expectOk(await searchRaw('q=combo&channel=WEB')).page.totalElements).to.equal(25);
  });

  it('refuses a keyword shorter than 2 characters (code points after trimming and NFC) with SHOP-VOU-002', async () => {
    expectRefusal(await searchRaw(''), 400, 'SHOP-VOU-002', /q/);
    expectRefusal(await searchRaw('q='), 400, 'SHOP-VOU-002');
    expectRefusal(await searchRaw('q=a'), 400, 'SHOP-VOU-002');
    expectRefusal(await searchRaw('q=%20%20a%20'), 400, 'SHOP-VOU-002');
    expectRefusal(await searchRaw(`q=${encodeURIComponent('ế'.normalize('NFD'))}`), 400, 'SHOP-VOU-002'); // three code units, one character
    expectRefusal(await searchRaw(`q=${encodeURIComponent('😀')}`), 400, 'SHOP-VOU-002');
    expectOk(await searchRaw(`q=${encodeURIComponent('ga')}`));
  });

  it('refuses a keyword that is not percent-encoded UTF-8, sent twice or too long with SHOP-REQ-001', async () => {
    expectRefusal(await searchRaw('q=%E1%BA'), 400, 'SHOP-REQ-001', /q must be percent-encoded UTF-8/);
    expectRefusal(await searchRaw('q=%C3%28combo'), 400, 'SHOP-REQ-001', /UTF-8/);
    expectRefusal(await searchRaw('q=%ZZcombo'), 400, 'SHOP-REQ-001', /UTF-8/);
    expectRefusal(await searchRaw('q=combo&q=ga'), 400, 'SHOP-REQ-001', /once/);
    expectRefusal(await searchRaw(`q=${'a'.repeat(201)}`), 400, 'SHOP-REQ-001', /at most 200/);
    expectRefusal(
      await searchRaw(`q=${encodeURIComponent('a b c d e f g h i j k')}`),
      400,
      'SHOP-REQ-001',
      /at most 10 words/,
    );
  });

  it('finds nothing, successfully, for a keyword without letters or digits', async () => {
    expect(expectOk(await searchRaw('q=%21%21')).page.totalElements).to.equal(0);
  });

  it('needs the shop credentials', async () => {
    expectOk(await shop.get('/vouchers/search?q=combo'));
    expectRefusal(await call(app.baseUrl, 'GET', '/api/v1/vouchers/search?q=combo'), 401, 'SHOP-AUTH-001');
  });

  it('follows the catalog: a paused campaign, a deleted pool and a renamed title leave the results', async () => {
    // The search reads a projection (docs/shop-search.md, "Consistency and the result cache"): each change shows
    // once the projector has applied it and announced it, a moment after the operator's answer.
    const shows = (q: string, expected: number[]) =>
      eventually(async () => expect(await ids(q)).to.deep.equal(expected));
    const before = await ids('samsung');
    expect(before).to.include(pool.galaxy!.poolId);
    expectOk(await operator.call('DELETE', `/voucher-pools/${pool.fpt!.poolId}`));
    await shows('samsung', [pool.galaxy!.poolId, pool.gift!.poolId]);

    expectOk(
      await operator.call('PATCH', `/voucher-pools/${pool.gift!.poolId}`, {
        json: { display: { title: 'Phiếu Oppo', brandName: 'Oppo' } },
      }),
    );
    await shows('samsung', [pool.galaxy!.poolId]);
    await shows('oppo', [pool.gift!.poolId]);

    expectOk(await operator.call('POST', `/campaigns/${phones.id}/status`, { json: { status: 'PAUSED' } }));
    await shows('samsung', []);
    expectOk(await operator.call('POST', `/campaigns/${phones.id}/status`, { json: { status: 'ACTIVE' } }));
    await shows('samsung', [pool.galaxy!.poolId]);
  });

  it('keeps the same rows and answers after the search projection is rebuilt from the event store', async () => {
    await projectionsCaughtUp(app);
    const ordered: [string, string[]][] = [
      ['shop_voucher_search', ['pool_id']],
      ['shop_voucher_search_campaigns', ['campaign_id']],
      ['shop_voucher_search_words', ['deletion_key', 'word']],
      ['shop_voucher_search_vocabulary', ['word']],
      ['shop_voucher_search_changes', ['last_change_position']],
    ];
    const rows = () => Promise.all(ordered.map(([table, key]) => app.container.knex(table).orderBy(key)));
    const before = await rows();
    await app.container.projections.rebuild('shop-voucher-search');
    expect(await rows()).to.deep.equal(before);
    expect(await ids('gà rán 2')).to.include(pool.combo2!.poolId);
  });

  it('comments every table, view and column of the search read models', async () => {
    const { rows } = await app.container.knex.raw<{
      rows: { relation: string; column: string | null; comment: string | null }[];
    }>(
      `SELECT c.relname AS relation, NULL AS column, obj_description(c.oid) AS comment FROM pg_class c
         WHERE c.relkind IN ('r', 'v') AND c.relname ~ '^shop_voucher_search(_campaigns|_words|_vocabulary|_changes){0,1}(_g[0-9]+){0,1}$'
       UNION ALL
       SELECT c.relname, a.attname, col_description(c.oid, a.attnum) FROM pg_class c
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
         WHERE c.relkind IN ('r', 'v') AND c.relname ~ '^shop_voucher_search(_campaigns|_words|_vocabulary|_changes){0,1}(_g[0-9]+){0,1}$'`,
    );
    expect(rows.filter((r) => r.column === null)).to.have.length(10); // five views and the five tables behind them
    expect(rows.filter((r) => !r.comment)).to.deep.equal([]);
  });

  it('leaves out vouchers once their campaign window has closed', async () => {
    expect(await ids('combo')).to.have.length(20);
    clock.set('2028-01-01T00:00:00.000Z'); // every campaign of the test ends 2027-12-31
    try {
      expect(await ids('combo')).to.deep.equal([]);
    } finally {
      clock.set('2026-06-01T00:00:00.000Z');
    }
  });
});
