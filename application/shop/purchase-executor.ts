/**
 * Runs every command that writes voucher pool streams in this process — reserve, commit, release, expire and the
 * operators' pool changes — through one batched stream writer that keeps the pools' state in memory (DESIGN.md,
 * hard problem 1). This file only composes it: the shop's jobs (purchase-batch.ts) and rules (reserve-rules.ts,
 * reservation-rules.ts, pool-command-rules.ts) plugged into application/shared/batched-stream-writer.ts.
 * docs/shop-purchase.md has the full account.
 */
import {
  shopDecoders,
  streams,
  purchaseDay,
  type PurchaseRequest,
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolCommand,
  type VoucherPoolState,
} from '../../domain/shop/index.js';
import { BatchedStreamWriter } from '../shared/batched-stream-writer.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import { HotStreams } from '../shared/hot-streams.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { IdReservoir } from '../shared/id-reservoir.js';
import { PoolCommandRules } from './pool-command-rules.js';
import {
  PurchaseDraft,
  type BatchTime,
  type ExecutorCaller,
  type ExecutorSettings,
  type PurchaseFamilies,
  type PurchaseJob,
  type Reservation,
  type ReserveOutcome,
} from './purchase-batch.js';
import { ReservationRules } from './reservation-rules.js';
import { ReserveRules } from './reserve-rules.js';
import type { VoucherCodeCipher } from './voucher-codes.js';

export type { ExecutorCaller, ExecutorSettings, Reservation, ReserveOutcome } from './purchase-batch.js';

export class PurchaseExecutor {
  private readonly pools: HotStreams<number, VoucherPoolState>;
  private readonly writer: BatchedStreamWriter<PurchaseJob, PurchaseDraft, BatchTime>;

  constructor(deps: {
    store: EventStore;
    ids: NumericIdGenerator;
    clock: Clock;
    codes: VoucherCodeCipher;
    settings: ExecutorSettings;
    maxAttempts?: number;
  }) {
    const { store, clock, settings } = deps;
    this.pools = new HotStreams(store, {
      streamName: streams.voucherPool,
      initialState: voucherPoolDecider.initialState,
      evolve: (s, e) => voucherPoolDecider.evolve(s, shopDecoders.voucherPool.decode(e)),
    });
    const reserves = new ReserveRules({
      store,
      pools: this.pools,
      issuedIds: new IdReservoir(deps.ids, 'issuedPromotion'),
      codes: deps.codes,
      settings,
    });
    const reservations = new ReservationRules({ store, pools: this.pools, settings });
    const poolCommands = new PoolCommandRules(this.pools);
    const families: PurchaseFamilies = {
      guards: reserves.guardStreams,
      pools: this.pools,
      reservations: reservations.reservationStreams,
    };
    this.writer = new BatchedStreamWriter(
      store,
      {
        prepare: (job) =>
          job.kind === 'reserve'
            ? reserves.prepare(job)
            : job.kind === 'pool'
              ? poolCommands.prepare(job)
              : reservations.prepare(job),
        draft: (parent) => new PurchaseDraft(families, parent),
        begin: () => {
          const now = clock.now();
          return { now, at: now.toISOString(), day: purchaseDay(now, settings.dayUtcOffsetMinutes) };
        },
        decide: (job, draft, time) =>
          job.kind === 'reserve'
            ? reserves.decide(job, draft, time)
            : job.kind === 'pool'
              ? poolCommands.decide(job, draft)
              : reservations.decide(job, draft, time.now),
        complete: (draft, time) => reserves.issueVouchers(draft, time),
      },
      { name: 'purchase executor', maxAttempts: deps.maxAttempts ?? 20 },
    );
  }

  reserve(
    caller: ExecutorCaller,
    idempotencyKey: string,
    request: PurchaseRequest,
    requestHash: () => string,
  ): Promise<ReserveOutcome> {
    return this.writer.submit<ReserveOutcome>({
      kind: 'reserve',
      caller,
      idempotencyKey,
      request,
      requestHash,
      checkGuards: false,
      absentPools: new Set(),
    });
  }

  commit(caller: ExecutorCaller, reservationKey: string): Promise<Reservation> {
    return this.writer.submit<Reservation>({
      kind: 'commit',
      caller,
      reservationKey,
      reason: null,
      now: null,
      absentPools: new Set(),
    });
  }

  release(caller: ExecutorCaller, reservationKey: string, reason: string | null): Promise<Reservation> {
    return this.writer.submit<Reservation>({
      kind: 'release',
      caller,
      reservationKey,
      reason,
      now: null,
      absentPools: new Set(),
    });
  }

  /** Expires the reservation if it is due at `now`; true when it did. */
  expire(reservationKey: string, now: Date): Promise<boolean> {
    return this.writer.submit<boolean>({
      kind: 'expire',
      caller: null,
      reservationKey,
      reason: null,
      now,
      absentPools: new Set(),
    });
  }

  /** Runs an operator's command on a pool; answers the pool as it is after it. */
  poolCommand(poolId: number, command: VoucherPoolCommand, context: CommandContext): Promise<VoucherPool> {
    return this.writer.submit<VoucherPool>({ kind: 'pool', poolId, command, context, absentPools: new Set() });
  }

  /** The pool as stored now: the cached state, caught up with whatever other writers appended. */
  currentPool(poolId: number): Promise<VoucherPoolState> {
    return this.pools.current(poolId);
  }

  /** Refuses new commands and resolves once every accepted one is answered. */
  stop(): Promise<void> {
    return this.writer.stop();
  }
}
