import { createHash } from 'node:crypto';
import {
  type Currency,
  streams,
  shopDecoders,
  shopError,
  validatePurchaseRequest,
  shopReservationDecider,
} from '../../domain/shop/index.js';
import type { Clock } from '../shared/clock.js';
import { loadAggregate } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { PurchaseExecutor, type ExecutorCaller, type Reservation } from './purchase-executor.js';
import { ReservationExpiryIndex } from './reservation-expiry-index.js';
import { toReservationView, unreadableCodes, type ReservationView } from './reservation-view.js';
import type { VoucherCodeCipher } from './voucher-codes.js';
import type { PoolCommands } from './voucher-pool-admin.js';

export type { ReservationView } from './reservation-view.js';

/** The merchant and user a purchase command is for, and the request's command context (api/shared/command-context.ts). */
export type ShopCaller = ExecutorCaller;

export interface ReserveRequest {
  orderId: string;
  amount: number;
  currency: Currency;
  items: { voucherPoolId: number; unitPrice: number; quantity: number }[];
}

export interface PurchaseSettings {
  /** replay: an identical resend under a used X-Idempotency-Key gets the first answer; reject: any resend gets IDEMPOTENCY_KEY_REUSED. */
  idempotencyMode: 'replay' | 'reject';
  reservationTtlSeconds: number;
  /** Reservations past expiresAt expire (stock returned) and commit/release answer RESERVATION_EXPIRED. */
  autoExpiry: boolean;
  /** Vouchers one reservation may hold, over all its lines (default 100). */
  maxVouchersPerReservation?: number;
  /** Day boundary of the daily purchase limit, minutes east of UTC. */
  dayUtcOffsetMinutes: number;
}

/**
 * What identifies a reserve request: the caller's user and the body, as
 * canonical JSON (fixed key order, lines sorted by pool), hashed with sha256.
 * A resend from another user under the same key is a different request.
 */
export function reserveRequestHash(userId: string, request: ReserveRequest): string {
  const items = [...request.items]
    .sort((a, b) => a.voucherPoolId - b.voucherPoolId)
    .map((i) => ({ voucherPoolId: i.voucherPoolId, unitPrice: i.unitPrice, quantity: i.quantity }));
  const canonical = JSON.stringify({
    userId,
    orderId: request.orderId,
    amount: request.amount,
    currency: request.currency,
    items,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The shop purchase flow: reserve, commit, release, lookup, and the sweep
 * that expires reservations when automatic expiry is on. Answers come from
 * the events just written or from the reservation aggregate, never from a
 * read model; errors are DomainErrors with the codes of domain/shop/errors.
 */
export class PurchaseService {
  private readonly store: EventStore;
  private readonly clock: Clock;
  private readonly codes: VoucherCodeCipher;
  private readonly settings: PurchaseSettings;
  private readonly logger:
    { info(msg: string, meta?: object): void; error?(msg: string, meta?: object): void } | undefined;
  private readonly executor: PurchaseExecutor;
  private readonly expiries: ReservationExpiryIndex;

  /** Pool commands for VoucherPoolAdmin, run through this service's pool states. */
  readonly pools: PoolCommands;

  constructor(deps: {
    store: EventStore;
    ids: NumericIdGenerator;
    clock: Clock;
    codes: VoucherCodeCipher;
    settings: PurchaseSettings;
    logger?: { info(msg: string, meta?: object): void; error?(msg: string, meta?: object): void };
  }) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.codes = deps.codes;
    this.settings = deps.settings;
    this.logger = deps.logger;
    this.executor = new PurchaseExecutor(deps);
    this.expiries = new ReservationExpiryIndex(deps.store);
    this.pools = {
      execute: (poolId, command, context) => this.executor.poolCommand(poolId, command, context),
      current: (poolId) => this.executor.currentPool(poolId),
    };
  }

  async reserve(caller: ShopCaller, idempotencyKey: string, request: ReserveRequest): Promise<ReservationView> {
    if (typeof idempotencyKey !== 'string' || idempotencyKey.length === 0) {
      throw shopError('INVALID_REQUEST', 'idempotencyKey is required', {
        field: 'idempotencyKey',
        reason: 'is required',
      });
    }
    validatePurchaseRequest(request, this.settings.maxVouchersPerReservation);
    let hash: string | undefined;
    const outcome = await this.executor.reserve(
      caller,
      idempotencyKey,
      request,
      () => (hash ??= reserveRequestHash(caller.userId, request)),
    );
    if (outcome.kind === 'placed') return this.view(outcome.reservation);
    const first = await this.reservation(caller, outcome.reservationKey);
    if (!first)
      throw new Error(
        `idempotency key ${idempotencyKey} names reservation ${outcome.reservationKey}, which is not stored`,
      );
    return this.view(first);
  }

  async commit(caller: ShopCaller, reservationKey: string): Promise<ReservationView> {
    return this.view(await this.executor.commit(caller, reservationKey));
  }

  async release(caller: ShopCaller, reservationKey: string, reason: string | null): Promise<ReservationView> {
    const released = await this.executor.release(caller, reservationKey, reason);
    this.logger?.info('shop reservation released', {
      reservationKey,
      orderId: released.details.orderId,
      reason,
      merchantId: caller.merchantId,
      userId: caller.userId,
      requestId: caller.context.requestId,
      correlationId: caller.context.correlationId,
    });
    return this.view(released);
  }

  /** The owner's view; codes no key opens are shown as null and logged (docs/shop-purchase.md). */
  private view(reservation: Reservation): ReservationView {
    const view = toReservationView(reservation, this.codes);
    const unreadable = unreadableCodes(view);
    if (unreadable)
      this.logger?.error?.('voucher codes could not be decrypted: is a key missing from VOUCHER_CODE_OLD_KEYS?', {
        reservationKey: view.reservationKey,
        unreadable,
      });
    return view;
  }

  /** The reservation as stored now (read from its stream, not from a cache or projection). */
  async get(caller: ShopCaller, reservationKey: string): Promise<ReservationView> {
    const reservation = await this.reservation(caller, reservationKey);
    if (!reservation) throw shopError('RESERVATION_NOT_FOUND', "reservation missing or not the caller's");
    return this.view(reservation);
  }

  /**
   * With automatic expiry on, expires every open reservation whose expiresAt
   * is at or before `now` (stock and the buyers' quotas go back); returns how
   * many it expired. Safe to run in several processes at once.
   */
  async expireDue(now: Date = this.clock.now()): Promise<number> {
    if (!this.settings.autoExpiry) return 0;
    const due = await this.expiries.due(now);
    const expired = await Promise.all(due.map((key) => this.executor.expire(key, now)));
    return expired.filter(Boolean).length;
  }

  /** Stops accepting commands and waits for the queued ones to be answered. */
  stop(): Promise<void> {
    return this.executor.stop();
  }

  private async reservation(caller: ShopCaller, reservationKey: string): Promise<Reservation | undefined> {
    const { state } = await loadAggregate(
      this.store,
      shopReservationDecider,
      shopDecoders.reservation,
      streams.reservation(reservationKey),
    );
    if (
      state.status === 'NONE' ||
      state.details.merchantId !== caller.merchantId ||
      state.details.userId !== caller.userId
    )
      return undefined;
    return state;
  }
}
