/**
 * Helpers for the HTTP API tests: plain fetch calls against a started test
 * app (tests/support/app.ts), the operator API to set the scene (merchant,
 * active campaign, pools) and the shop's header builders.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { gatewayHeaders } from '../support/gateway.js';

export const operatorToken = 'alice-operator-token-0123456789';

export interface Envelope<T> {
  code: string;
  message: string;
  data: T;
}

export interface HttpResult<T = unknown> {
  status: number;
  /** The parsed JSON body; undefined when the body is not JSON. */
  body: Envelope<T> | undefined;
  text: string;
  headers: Headers;
}

/** Headers whose value is undefined are left out, so a test can drop one header of a builder's set. */
export type HeaderSet = Record<string, string | undefined>;

export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: HeaderSet; json?: unknown; rawBody?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[name] = value;
  let body = options.rawBody;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: Envelope<T> | undefined;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/**
 * Asserts the status and the {code, message, data} envelope (exactly those
 * keys, a message, no stack trace or source path leaking) and returns data.
 */
export function expectEnvelope<T>(res: HttpResult<T>, status: number, code: string): T {
  expect(res.status, res.text).to.equal(status);
  expect(res.body, res.text).to.be.an('object').that.has.all.keys('code', 'message', 'data');
  const body = res.body!;
  expect(body.code, res.text).to.equal(code);
  expect(body.message).to.be.a('string').with.length.above(0);
  if (code === 'SUCCESS') expect(body.message).to.equal('Success');
  expect(res.text).not.to.match(/\n\s+at |\bat [\w.<>]+ \(|node_modules|\.ts:\d+/);
  return body.data;
}

export function expectOk<T>(res: HttpResult<T>, status = 200): T {
  return expectEnvelope(res, status, 'SUCCESS');
}

/** A refusal: status, code, data null, and (when given) a message matching `message`. */
export function expectRefusal(res: HttpResult<unknown>, status: number, code: string, message?: RegExp): void {
  expect(expectEnvelope(res, status, code), res.text).to.equal(null);
  if (message) expect(res.body!.message).to.match(message);
}

export const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const unique = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;

// ---- operator API ----

export interface IssuedKeyData {
  id: number;
  key: string;
  prefix: string;
  expiresAt: string | null;
}

export interface MerchantData {
  merchantId: string;
  name: string;
  registeredAt: string;
  apiKeys: {
    id: number;
    prefix: string;
    status: 'ACTIVE' | 'REVOKED';
    expiresAt: string | null;
    issuedAt: string;
    revokedAt: string | null;
  }[];
}

export interface CampaignData {
  id: number;
  code: string;
  name: string;
  status: string;
  startAt: string;
  endAt: string;
  banners: { id: number }[];
}

export interface PoolTermsInput {
  usageType: 'ONLINE' | 'OFFLINE';
  termsAndConditions: string;
  validityDays: number;
  usageLimit: number | null;
  maxPerDay: number | null;
  maxPerOrder: number | null;
}

export interface PoolData {
  poolId: number;
  campaignId: number;
  status: 'ACTIVE' | 'DELETED';
  pricing: { faceValue: number; sellingPrice: number; discountedPrice: number | null; currency: 'VND' | 'VPOINT' };
  terms: PoolTermsInput;
  totalQuantity: number;
  remainingQuantity: number;
  reservedQuantity: number;
  soldQuantity: number;
}

/** A merchant as the shop API tests use it: its id and a working API key. */
export interface ShopMerchant {
  merchantId: string;
  apiKey: string;
  apiKeyId: number;
}

export const operatorHeaders = (token = operatorToken): HeaderSet => ({ Authorization: `Bearer ${token}` });

export function campaignInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: unique('CMP-'),
    name: 'Flash sale',
    description: 'Vouchers at a discount',
    campaignTag: 'FLASH_SALE',
    type: 'SELL',
    displayPriority: 1,
    themeUrl: 'https://cdn.example.vn/theme.png',
    startAt: '2026-01-01T00:00:00Z',
    endAt: '2027-12-31T00:00:00Z',
    presale: null,
    banners: [],
    ...overrides,
  };
}

export function poolInput(
  campaignId: number,
  overrides: { pricing?: Partial<PoolData['pricing']>; terms?: Partial<PoolTermsInput>; totalQuantity?: number } = {},
) {
  return {
    campaignId,
    categoryId: 1,
    miniAppIds: ['mini-app'],
    display: {
      title: 'Coffee voucher 100.000đ',
      shortTitle: 'Coffee 100k',
      brandName: 'Brew',
      logoUrl: 'https://cdn.example.vn/logo.png',
      bannerUrl: 'https://cdn.example.vn/banner.png',
      thumbnailUrl: 'https://cdn.example.vn/thumb.png',
      description: 'One coffee',
    },
    pricing: { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: null, currency: 'VND', ...overrides.pricing },
    totalQuantity: overrides.totalQuantity ?? 100,
    terms: {
      usageType: 'ONLINE',
      termsAndConditions: 'One use',
      validityDays: 30,
      usageLimit: null,
      maxPerDay: null,
      maxPerOrder: null,
      ...overrides.terms,
    },
    validity: null,
  };
}

/** The operator API (/operator/v1) as alice. */
export class OperatorApi {
  constructor(
    readonly baseUrl: string,
    readonly token = operatorToken,
  ) {}

  call<T>(
    method: string,
    path: string,
    options: { json?: unknown; rawBody?: string; headers?: HeaderSet } = {},
  ): Promise<HttpResult<T>> {
    return call<T>(this.baseUrl, method, `/operator/v1${path}`, {
      ...options,
      headers: { ...operatorHeaders(this.token), ...options.headers },
    });
  }

  async createMerchant(
    input: { merchantId?: string; name?: string; apiKeyExpiresAt?: string | null } = {},
  ): Promise<ShopMerchant> {
    const res = await this.call<{ merchantId: string; apiKey: IssuedKeyData }>('POST', '/merchants', {
      json: { merchantId: unique('M'), name: 'Merchant', ...input },
    });
    const data = expectOk(res, 201);
    return { merchantId: data.merchantId, apiKey: data.apiKey.key, apiKeyId: data.apiKey.id };
  }

  /** A campaign taken through DRAFT → APPROVED → ACTIVE. */
  async createActiveCampaign(overrides: Record<string, unknown> = {}): Promise<CampaignData> {
    const created = expectOk(
      await this.call<CampaignData>('POST', '/campaigns', { json: campaignInput(overrides) }),
      201,
    );
    expectOk(await this.call('POST', `/campaigns/${created.id}/status`, { json: { status: 'APPROVED' } }));
    return expectOk(
      await this.call<CampaignData>('POST', `/campaigns/${created.id}/status`, { json: { status: 'ACTIVE' } }),
    );
  }

  async createPool(campaignId: number, overrides: Parameters<typeof poolInput>[1] = {}): Promise<PoolData> {
    return expectOk(
      await this.call<PoolData>('POST', '/voucher-pools', { json: poolInput(campaignId, overrides) }),
      201,
    );
  }

  async pool(poolId: number): Promise<PoolData> {
    return expectOk(await this.call<PoolData>('GET', `/voucher-pools/${poolId}`));
  }
}

// ---- shop API ----

export interface VoucherData {
  issuedPromotionId: number;
  voucherCode: string;
  faceValue: number;
  sellingPrice: number;
  currency: string;
  purchasedAt: string;
  expiresAt: string;
}

export interface ReservationData {
  reservationKey: string;
  orderId: string;
  status?: string;
  reservedAt: string;
  expiresAt: string;
  committedAt?: string | null;
  releasedAt?: string | null;
  items: { voucherPoolId: number; quantity: number; vouchers: VoucherData[] }[];
}

export interface ReserveBody {
  orderId: string;
  amount: number;
  currency: string;
  items: { voucherPoolId: number; unitPrice: number; quantity: number }[];
}

/** A reserve body for `quantity` vouchers of each pool at its selling price; amount is their total. */
export function reserveBody(
  lines: { pool: Pick<PoolData, 'poolId' | 'pricing'>; quantity?: number }[],
  orderId = unique('ORD-'),
): ReserveBody {
  const items = lines.map(({ pool, quantity = 1 }) => ({
    voucherPoolId: pool.poolId,
    unitPrice: pool.pricing.sellingPrice,
    quantity,
  }));
  return {
    orderId,
    amount: items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0),
    currency: lines[0]!.pool.pricing.currency,
    items,
  };
}

/** Every header a shop purchase call needs, for `merchant` and `userId`, with a fresh X-Request-Id. */
export function shopHeaders(merchant: ShopMerchant, userId: string | undefined, overrides: HeaderSet = {}): HeaderSet {
  return {
    ...gatewayHeaders(),
    'X-Promotion-Api-Key': merchant.apiKey,
    'X-Merchant-Id': merchant.merchantId,
    'X-User-Id': userId,
    'X-Request-Id': randomUUID(),
    Accept: 'application/json',
    ...overrides,
  };
}

/** One user of one merchant calling the shop's purchase endpoints. */
export class Shopper {
  constructor(
    readonly baseUrl: string,
    readonly merchant: ShopMerchant,
    readonly userId: string = unique('user-'),
  ) {}

  headers(overrides: HeaderSet = {}): HeaderSet {
    return shopHeaders(this.merchant, this.userId, overrides);
  }

  reserve(
    body: unknown,
    options: { idempotencyKey?: string; headers?: HeaderSet } = {},
  ): Promise<HttpResult<ReservationData>> {
    return call<ReservationData>(this.baseUrl, 'POST', '/api/v1/vouchers/reserve', {
      json: body,
      headers: this.headers({ 'X-Idempotency-Key': options.idempotencyKey ?? randomUUID(), ...options.headers }),
    });
  }

  /** Reserves and asserts the 200; answers the reservation. */
  async reserved(body: unknown): Promise<ReservationData> {
    return expectOk(await this.reserve(body));
  }

  commit(reservationKey: unknown): Promise<HttpResult<ReservationData>> {
    return call<ReservationData>(this.baseUrl, 'POST', '/api/v1/vouchers/commit', {
      json: { reservationKey },
      headers: this.headers(),
    });
  }

  release(reservationKey: unknown, reason?: string): Promise<HttpResult<ReservationData>> {
    return call<ReservationData>(this.baseUrl, 'POST', '/api/v1/vouchers/release', {
      json: { reservationKey, reason },
      headers: this.headers(),
    });
  }

  lookup(reservationKey: string): Promise<HttpResult<ReservationData>> {
    return call<ReservationData>(
      this.baseUrl,
      'GET',
      `/api/v1/vouchers/reservation/${encodeURIComponent(reservationKey)}`,
      { headers: this.headers() },
    );
  }
}

/** A merchant with an active campaign: what most shop tests start from. */
export async function shopScene(
  baseUrl: string,
): Promise<{ operator: OperatorApi; merchant: ShopMerchant; campaign: CampaignData }> {
  const operator = new OperatorApi(baseUrl);
  const merchant = await operator.createMerchant();
  const campaign = await operator.createActiveCampaign();
  return { operator, merchant, campaign };
}
