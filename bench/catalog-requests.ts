/**
 * bench:catalog's requests (bench/catalog.ts): search, voucher listing and voucher detail GETs over the generated
 * catalog, each with the variant it exercises (a filter or a search term) for the per-variant breakdown.
 */
import { randomUUID } from 'node:crypto';
import { categories, seededRandom, type GeneratedCampaign } from './catalog-data.js';
import type { LoadRequest } from './load.js';

export type Kind = 'search' | 'list' | 'detail';

/** What a shopper types: plain and accented words, brands, a prefix, a typo. */
const searchTerms = [
  'khuyen mai',
  'dien thoai',
  'cà phê',
  'ca phe sua da',
  'trà sữa',
  'highlands',
  'hihglands',
  'phở',
  'pho ha noi',
  've xem phim',
  'giảm giá',
  'the nap',
  'vietj',
  'bún chả',
  'combo ga ran',
  'voucher taxi',
  'mua 1 tang 1',
  'khach san',
  'sieu thi',
  'tết',
];

/** The requests, and for each its kind and variant (the filter or search term it uses, for the per-variant breakdown). */
export function requestsFor(
  campaigns: GeneratedCampaign[],
  headers: Record<string, string>,
  seed: number,
  perKind: number,
): { requests: LoadRequest[]; kinds: Kind[]; variants: string[] } {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const live = campaigns.filter((c) => c.live && c.poolIds.length > 0);
  const livePools = live.flatMap((c) => c.poolIds);
  const listQueries: [string, () => string][] = [
    ['page', () => `page=${Math.floor(random() * 20)}`],
    ['tag', () => `tag=${pick(['HOT_DEAL', 'FLASH_SALE', 'NEW', 'TET_DEAL'])}&page=${Math.floor(random() * 5)}`],
    ['tags,size=50', () => 'tags=FLASH_SALE,NEW&size=50'],
    ['categoryIds', () => `categoryIds=${pick(categories)[0]},${pick(categories)[0]}`],
    ['campaignIds', () => `campaignIds=${pick(live).id},${pick(live).id},${pick(live).id}`],
    ['excludeCampaignIds,WEB', () => `excludeCampaignIds=${pick(live).id}&channel=WEB`],
    ['tag+categoryIds', () => `tag=HOT_DEAL&categoryIds=${pick(categories)[0]}&size=10`],
  ];
  const make: Record<Kind, () => [string, string]> = {
    search: () => {
      const term = pick(searchTerms);
      return [`/api/v1/vouchers/search?q=${encodeURIComponent(term)}${random() < 0.2 ? '&tag=HOT_DEAL' : ''}`, term];
    },
    list: () => {
      const [variant, query] = pick(listQueries);
      return [`/api/v1/vouchers?${query()}`, variant];
    },
    detail: () => [`/api/v1/vouchers/${pick(livePools)}${random() < 0.5 ? '?channel=WEB' : ''}`, 'id'],
  };
  const kinds: Kind[] = [];
  const variants: string[] = [];
  const requests: LoadRequest[] = [];
  for (let i = 0; i < perKind * 3; i++) {
    const kind = (['search', 'list', 'detail'] as const)[i % 3]!;
    const [path, variant] = make[kind]();
    kinds.push(kind);
    variants.push(variant);
    // Half the calls name a user, so userPurchaseUsage is computed too.
    const user: Record<string, string> = random() < 0.5 ? { 'x-user-id': `user-${i % 500}` } : {};
    requests.push({ method: 'GET', path, headers: { ...headers, ...user, 'x-request-id': randomUUID() } });
  }
  return { requests, kinds, variants };
}

/** The route pattern of each kind of request, as the service labels its timings. */
export const routes: Record<Kind, string> = {
  search: '/api/v1/vouchers/search',
  list: '/api/v1/vouchers',
  detail: '/api/v1/vouchers/:id(\\\\d+)',
};
