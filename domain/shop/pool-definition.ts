import { currencies, type PoolDisplay, type PoolPricing, type PoolTerms, type VoucherPoolCreated } from './events.js';
import { shopError } from './errors.js';

/** What an operator gives to create a voucher pool: the creation event's data less what the system assigns. */
export type PoolDefinition = Omit<VoucherPoolCreated['data'], 'poolId' | 'createdAt' | 'sale'>;
export type PoolValidity = PoolDefinition['validity'];

const invalid = (field: string, reason: string) => shopError('INVALID_POOL', `${field} ${reason}`, { field, reason });
const isInteger = (n: unknown, min: number): n is number => Number.isSafeInteger(n) && (n as number) >= min;
const isInstant = (s: unknown) => typeof s === 'string' && !Number.isNaN(Date.parse(s));

/**
 * Prices are integers >= 0, sellingPrice <= faceValue. The buyer pays sellingPrice (reserve demands it), so
 * discountedPrice, the price after discount, is null or sellingPrice itself: a listing never advertises a price the
 * buyer cannot pay (docs/shop-api.md, "Pricing").
 * Operator input arrives unchecked: a missing pricing object is refused on its first field.
 */
export function assertValidPricing(input: PoolPricing | null | undefined): void {
  const pricing = input ?? ({} as Partial<PoolPricing>);
  if (!isInteger(pricing.faceValue, 0)) throw invalid('pricing.faceValue', 'must be an integer >= 0');
  if (!isInteger(pricing.sellingPrice, 0)) throw invalid('pricing.sellingPrice', 'must be an integer >= 0');
  if (pricing.sellingPrice > pricing.faceValue) throw invalid('pricing.sellingPrice', 'must not exceed faceValue');
  if (pricing.discountedPrice !== null) {
    if (!isInteger(pricing.discountedPrice, 0))
      throw invalid('pricing.discountedPrice', 'must be null or an integer >= 0');
    if (pricing.discountedPrice !== pricing.sellingPrice)
      throw invalid(
        'pricing.discountedPrice',
        'must be null or equal sellingPrice: the buyer pays sellingPrice, so no other price is advertised',
      );
  }
  if (!(currencies as readonly unknown[]).includes(pricing.currency))
    throw invalid('pricing.currency', `must be one of ${currencies.join(', ')}`);
}

export function assertValidTerms(input: PoolTerms | null | undefined): void {
  const terms = input ?? ({} as Partial<PoolTerms>);
  if (terms.usageType !== 'ONLINE' && terms.usageType !== 'OFFLINE')
    throw invalid('terms.usageType', 'must be ONLINE or OFFLINE');
  if (typeof terms.termsAndConditions !== 'string') throw invalid('terms.termsAndConditions', 'must be a string');
  if (!isInteger(terms.validityDays, 1)) throw invalid('terms.validityDays', 'must be an integer >= 1');
  for (const limit of ['usageLimit', 'maxPerDay', 'maxPerOrder'] as const) {
    if (terms[limit] !== null && !isInteger(terms[limit], 1))
      throw invalid(`terms.${limit}`, 'must be null or an integer >= 1');
  }
}

export const poolDisplayFields = [
  'title',
  'shortTitle',
  'brandName',
  'logoUrl',
  'bannerUrl',
  'thumbnailUrl',
  'description',
] as const;

export function assertValidDisplay(display: PoolDisplay | null | undefined): void {
  for (const key of poolDisplayFields) {
    if (typeof display?.[key] !== 'string') throw invalid(`display.${key}`, 'must be a string');
  }
}

export function assertValidCategoryId(categoryId: unknown): asserts categoryId is number {
  if (!isInteger(categoryId, 0)) throw invalid('categoryId', 'must be an integer >= 0');
}

export function assertValidMiniAppIds(miniAppIds: unknown): asserts miniAppIds is string[] {
  if (!Array.isArray(miniAppIds) || !miniAppIds.every((id) => typeof id === 'string'))
    throw invalid('miniAppIds', 'must be an array of strings');
}

export function assertValidValidity(validity: PoolValidity | undefined): void {
  if (validity === null) return;
  if (validity === undefined || !isInstant(validity.startAt))
    throw invalid('validity.startAt', 'must be an ISO 8601 time');
  if (!isInstant(validity.endAt)) throw invalid('validity.endAt', 'must be an ISO 8601 time');
  if (Date.parse(validity.endAt) <= Date.parse(validity.startAt))
    throw invalid('validity.endAt', 'must be after startAt');
}

export function assertValidDefinition(d: PoolDefinition): void {
  if (!isInteger(d.campaignId, 1)) throw invalid('campaignId', 'must be a positive integer');
  assertValidCategoryId(d.categoryId);
  assertValidMiniAppIds(d.miniAppIds);
  assertValidDisplay(d.display);
  assertValidPricing(d.pricing);
  if (!isInteger(d.totalQuantity, 0)) throw invalid('totalQuantity', 'must be an integer >= 0');
  assertValidTerms(d.terms);
  assertValidValidity(d.validity);
}
