import { newCommandContext } from '../../../application/shared/command-context.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { CampaignAdmin } from '../../../application/shop/campaign-admin.js';
import { CampaignSaleSync } from '../../../application/shop/campaign-sale-sync.js';
import {
  PurchaseService,
  type PurchaseSettings,
  type ReserveRequest,
  type ShopCaller,
} from '../../../application/shop/purchase-service.js';
import type { VoucherCodeCipher } from '../../../application/shop/voucher-codes.js';
import { VoucherPoolAdmin, type PoolCommands } from '../../../application/shop/voucher-pool-admin.js';
import { DomainError } from '../../../domain/shared/errors.js';
import type { PoolDefinition } from '../../../domain/shop/pool-definition.js';
import { PostgresEventStore } from '../../../infrastructure/shared/eventstore/postgres-event-store.js';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { PostgresNumericIds } from '../../../infrastructure/shared/numeric-ids.js';
import { AesGcmVoucherCodeCipher } from '../../../infrastructure/shop/voucher-code-cipher.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { asOperator } from '../../support/commands.js';

export const start = '2026-03-01T03:00:00.000Z';

export const defaultSettings: PurchaseSettings = {
  idempotencyMode: 'replay',
  reservationTtlSeconds: 900,
  autoExpiry: false,
  dayUtcOffsetMinutes: 420,
};

/** One test database with the store, and a way to start purchase services ("processes") on it. */
export class PurchaseWorld {
  readonly clock = fixedClock(start);
  /** The voucher code key of the processes started without a cipher of their own. */
  readonly codeKey = randomBytes(32);
  readonly codes = new AesGcmVoucherCodeCipher(this.codeKey);
  readonly logged: { msg: string; meta?: object }[] = [];
  private readonly services: PurchaseService[] = [];
  campaignId = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly store: PostgresEventStore,
    readonly ids: PostgresNumericIds,
  ) {}

  static async create(): Promise<PurchaseWorld> {
    const db = await createTestDatabase();
    await migrate(db.knex);
    const world = new PurchaseWorld(db, new PostgresEventStore(db.knex), new PostgresNumericIds(db.knex));
    const campaigns = world.campaignAdmin(world.noPoolsYet);
    const campaign = await campaigns.create(asOperator('ops'), {
      code: `C${randomUUID().slice(0, 8)}`,
      name: 'Flash',
      description: 'Flash sale',
      campaignTag: 'FLASH_SALE',
      type: 'SELL',
      displayPriority: 1,
      themeUrl: 'https://cdn.example.com/t.png',
      startAt: '2026-03-01T00:00:00.000Z',
      endAt: '2026-03-31T00:00:00.000Z',
      presale: null,
      banners: [],
    });
    // On sale (docs/shop-purchase.md, "On sale"): ACTIVE, and the world's clock inside its window.
    await campaigns.changeStatus(asOperator('ops'), campaign.id, 'APPROVED');
    await campaigns.changeStatus(asOperator('ops'), campaign.id, 'ACTIVE');
    world.campaignId = campaign.id;
    return world;
  }

  /** Pool commands for a campaign change made before any pool exists (nothing is listed to copy to). */
  readonly noPoolsYet: PoolCommands = {
    execute: () => Promise.reject(new Error('no pool exists yet in this world')),
    current: () => Promise.resolve({ status: 'NONE' }),
  };

  /** A campaign admin whose changes reach the pools of `pools` (a process's executor). */
  campaignAdmin(pools: PoolCommands): CampaignAdmin {
    const sales = new CampaignSaleSync({ store: this.store, pools, clock: this.clock });
    return new CampaignAdmin({ store: this.store, ids: this.ids, clock: this.clock, sales });
  }

  /** A purchase service and the pool admin wired to it, like one API process. */
  process(
    settings: Partial<PurchaseSettings> = {},
    codes: VoucherCodeCipher = this.codes,
  ): { purchases: PurchaseService; pools: VoucherPoolAdmin } {
    const purchases = new PurchaseService({
      store: this.store,
      ids: this.ids,
      clock: this.clock,
      codes,
      settings: { ...defaultSettings, ...settings },
      logger: {
        info: (msg, meta) => this.logged.push({ msg, meta }),
        error: (msg, meta) => this.logged.push({ msg, meta }),
      },
    });
    this.services.push(purchases);
    return {
      purchases,
      pools: new VoucherPoolAdmin({
        store: this.store,
        ids: this.ids,
        clock: this.clock,
        pools: purchases.pools,
        sales: new CampaignSaleSync({ store: this.store, pools: purchases.pools, clock: this.clock }),
      }),
    };
  }

  definition(
    overrides: Omit<Partial<PoolDefinition>, 'terms'> & { terms?: Partial<PoolDefinition['terms']> } = {},
  ): PoolDefinition {
    const { terms, ...rest } = overrides;
    return {
      campaignId: this.campaignId,
      categoryId: 1,
      miniAppIds: ['app'],
      display: {
        title: 'Coffee 100k',
        shortTitle: 'Coffee',
        brandName: 'Brew',
        logoUrl: 'l',
        bannerUrl: 'b',
        thumbnailUrl: 't',
        description: 'd',
      },
      pricing: { faceValue: 100_000, sellingPrice: 90_000, discountedPrice: null, currency: 'VND' },
      totalQuantity: 100,
      terms: {
        usageType: 'ONLINE',
        termsAndConditions: 'none',
        validityDays: 30,
        usageLimit: null,
        maxPerDay: null,
        maxPerOrder: null,
        ...terms,
      },
      validity: null,
      ...rest,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.services.map((s) => s.stop()));
    await this.store.close();
    await this.db.drop();
  }
}

export const caller = (userId = 'u1', merchantId = 'm1'): ShopCaller => ({
  merchantId,
  userId,
  context: newCommandContext({ requestId: randomUUID(), actor: { merchantId, userId } }),
});

export const order = (
  poolId: number,
  quantity = 1,
  unitPrice = 90_000,
  orderId: string = randomUUID(),
): ReserveRequest => ({
  orderId,
  amount: unitPrice * quantity,
  currency: 'VND',
  items: [{ voucherPoolId: poolId, unitPrice, quantity }],
});

/**
 * Runs the expiry sweep until it has expired `expected` reservations in all.
 * The global log is read only below the oldest transaction running anywhere
 * on the server, so a sweep can see a just-written reservation a moment late.
 */
export async function sweepUntil(purchases: PurchaseService, expected: number, now?: Date): Promise<number> {
  let expired = 0;
  for (let attempt = 0; attempt < 100 && expired < expected; attempt++) {
    expired += await purchases.expireDue(now);
    if (expired < expected) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return expired;
}

export async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  return expect.fail('expected a DomainError');
}

export async function refusedWith(promise: Promise<unknown>, code: string): Promise<DomainError> {
  const error = await refusal(promise);
  expect(error.code, error.message).to.equal(code);
  return error;
}
