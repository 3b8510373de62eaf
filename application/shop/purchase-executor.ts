/**
 * Runs every command that writes voucher pool streams in this process —
 * reserve, commit, release, expire and the operators' pool changes — through
 * one serial loop that keeps the pools' state in memory (DESIGN.md, hard
 * problem 1; docs/shop-purchase.md has the full account).
 *
 * A command first gets what it needs loaded, outside the loop and in
 * parallel with everything else: its pools (a cold pool is read in full once,
 * a stale one only from its cached revision on), its reservation, and after a
 * guard conflict its guards. It then waits in `ready`. The loop takes all
 * ready commands as one batch, decides them in order against the cached
 * states plus the batch's own earlier decisions (a multi-pool reservation
 * must pass on every pool or changes none), and writes the whole batch —
 * pool events, reservation streams, guard streams — with ONE appendMany:
 * exact expected revisions for existing streams, 'no_stream' for new ones.
 * Commands arriving meanwhile form the next batch, which is decided while
 * the previous one is appended, on top of its states, and appended right
 * after it is stored (its expected revisions assume it; if it failed, the
 * next batch is decided again).
 *
 * The cache only ever holds stored state: a batch's states replace the
 * cached ones after the append succeeded, never before. When the append
 * fails on a conflict, the stream it names tells what went stale (a pool
 * another process wrote, a reservation, a guard that already existed); that
 * is marked, and the batch's commands are prepared and decided again
 * (at most maxAttempts times each). Any other failure sends the commands
 * back one by one, so a command that cannot be written fails alone.
 *
 * A refusal decided from cached state (out of stock, price changed, limit
 * reached, pool missing) is only answered once that state is known current:
 * the batch wrote the pool at the cached revision, or a read of the pool
 * after that revision, made while the batch is appended, found nothing new.
 */
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';
import {
  streams,
  type ReservedItem,
  type ShopReservationEvent,
  type VoucherPoolEvent,
} from '../../domain/shop/events.js';
import { shopError } from '../../domain/shop/errors.js';
import { purchaseDay } from '../../domain/shop/purchase-day.js';
import type { PurchaseRequest } from '../../domain/shop/purchase-request.js';
import {
  isExpiryDue,
  shopReservationDecider,
  type ReservationCaller,
  type ReservationDetails,
  type ShopReservationState,
} from '../../domain/shop/reservation.js';
import {
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolCommand,
  type VoucherPoolState,
} from '../../domain/shop/voucher-pool.js';
import type { Clock } from '../shared/clock.js';
import { eventMetadata } from '../shared/command-context.js';
import {
  catchUp,
  expectedVersionOf,
  loadAggregate,
  nameBasedUuid,
  type CommandContext,
  type Loaded,
} from '../shared/command-handler.js';
import {
  WrongExpectedVersionError,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type StreamWrite,
} from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { BoundedCache } from './bounded-cache.js';
import { IdReservoir } from './id-reservoir.js';
import { newVoucherCode, type VoucherCodeCipher } from './voucher-codes.js';

export interface ExecutorSettings {
  idempotencyMode: 'replay' | 'reject';
  reservationTtlSeconds: number;
  autoExpiry: boolean;
  dayUtcOffsetMinutes: number;
}

export interface ExecutorCaller extends ReservationCaller {
  requestId: string;
}

export type Reservation = Exclude<ShopReservationState, { status: 'NONE' }>;

/** A reserve either placed a reservation or is a resend of the one placed under its idempotency key. */
export type ReserveOutcome = { kind: 'placed'; reservation: Reservation } | { kind: 'replay'; reservationKey: string };

interface JobBase {
  attempts: number;
  /** Sent back alone after a batch failed for a reason other than a conflict. */
  solo: boolean;
  settled: boolean;
  /** Pools prepare found without a stream. */
  absentPools: Set<number>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface ReserveJob extends JobBase {
  kind: 'reserve';
  caller: ExecutorCaller;
  idempotencyKey: string;
  request: PurchaseRequest;
  requestHash: string;
  /** Read the guard streams before deciding (one of them was found to exist). */
  checkGuards: boolean;
}

interface ReservationJob extends JobBase {
  kind: 'commit' | 'release' | 'expire';
  /** null: the expiry sweep. */
  caller: ExecutorCaller | null;
  reservationKey: string;
  reason: string | null;
  /** The sweep's "now"; other commands use the batch's clock reading. */
  now: Date | null;
}

interface PoolJob extends JobBase {
  kind: 'pool';
  poolId: number;
  command: VoucherPoolCommand;
  context: CommandContext;
}

type Job = ReserveJob | ReservationJob | PoolJob;

/** A pool as stored at `revision`; stale: another writer moved it, catch up before deciding. */
interface PoolSlot extends Loaded<VoucherPoolState> {
  stale: boolean;
}

/** What a conflict on a stream of the batch means: what to reload, and whose command it is (when it is one command's). */
interface StreamOwner {
  markStale(): void;
  job?: Job;
}

interface GuardRecord {
  requestHash: string;
  reservationKey: string;
}

type Decision =
  /** The job's events are in the batch: answer `value()` (or `error`, for an expiry found on commit/release) once stored. */
  | { kind: 'write'; value: () => unknown; error?: DomainError }
  /** Refused from state that the batch's success (or, for `poolId`, a freshness read) confirms. */
  | { kind: 'refused'; error: DomainError; poolId?: number }
  /** Answer known from state that never changes (guards, ...): independent of the batch. */
  | { kind: 'final'; ok: boolean; value: unknown }
  /** Not ready (a state to load) or waiting for an earlier command of this batch: decide again later. */
  | { kind: 'again' };

/** The batch's clock reading, in the forms its decisions need. */
interface BatchTime {
  now: Date;
  at: string;
  /** Purchase day of `now` for the daily limits. */
  day: string;
}

class NotReady {}
const notReady = new NotReady();
const absentPool: Loaded<VoucherPoolState> = { state: voucherPoolDecider.initialState, revision: -1 };

interface DraftStream<S> {
  /** Revision the stream is expected at before these events. */
  revision: number;
  state: S;
  events: EventToAppend[];
}

/** A drafted stream as a later batch sees it: at the revision after the draft's events. */
function after<S>(entry: DraftStream<S>): Loaded<S> {
  return { state: entry.state, revision: entry.revision + entry.events.length };
}

interface Placement {
  job: ReserveJob;
  reservationKey: string;
  metadata: EventMetadata;
  lines: { voucherPoolId: number; quantity: number; unitPrice: number; pool: VoucherPool }[];
}

/**
 * What a batch decided, not yet stored. `parent`: the batch that was being
 * appended while this one was decided; this one builds on its states and is
 * appended only once the parent is stored (its expected revisions assume it).
 */
class Draft {
  readonly pools = new Map<number, DraftStream<VoucherPoolState>>();
  /** `job`: the last command of the batch that changed it. */
  readonly reservations = new Map<string, DraftStream<ShopReservationState> & { job: Job }>();
  readonly guards = new Map<string, { record: GuardRecord; event: EventToAppend; job: ReserveJob }>();
  readonly placements: Placement[] = [];

  constructor(public parent: Draft | undefined) {}

  inheritedPool(poolId: number): Loaded<VoucherPoolState> | undefined {
    const entry = this.parent?.pools.get(poolId);
    return entry && after(entry);
  }

  inheritedReservation(key: string): Loaded<ShopReservationState> | undefined {
    const entry = this.parent?.reservations.get(key);
    return entry && after(entry);
  }

  claims(guard: string): boolean {
    return this.guards.has(guard) || (this.parent?.guards.has(guard) ?? false);
  }
}

/** A batch whose append is under way: `stored` tells whether it was stored. */
interface Appending {
  draft: Draft;
  stored: Promise<boolean>;
  done: boolean;
}

const maxBatch = 500;
/** Reservations kept for commit/release right after reserve (each holds its vouchers: about 1-2 KB). */
const reservationCacheLimit = 10_000;
/** Guards seen, so a resend is answered without a failed append (about 100 bytes each). */
const guardCacheLimit = 100_000;

export class PurchaseExecutor {
  private readonly store: EventStore;
  private readonly issuedIds: IdReservoir;
  private readonly clock: Clock;
  private readonly codes: VoucherCodeCipher;
  private readonly settings: ExecutorSettings;
  private readonly maxAttempts: number;

  private readonly pools = new Map<number, PoolSlot>();
  private readonly poolLoads = new Map<number, Promise<boolean>>();
  private readonly reservations = new BoundedCache<string, Loaded<Reservation>>(reservationCacheLimit);
  private readonly guards = new BoundedCache<string, GuardRecord>(guardCacheLimit);

  private ready: Job[] = [];
  private running = false;
  /** Wakes the loop when it waits for an append and a command becomes ready. */
  private arrived: (() => void) | undefined;
  private stopped = false;
  private inFlight = 0;
  private drained: (() => void)[] = [];

  constructor(deps: {
    store: EventStore;
    ids: NumericIdGenerator;
    clock: Clock;
    codes: VoucherCodeCipher;
    settings: ExecutorSettings;
    maxAttempts?: number;
  }) {
    this.store = deps.store;
    this.issuedIds = new IdReservoir(deps.ids, 'issuedPromotion');
    this.clock = deps.clock;
    this.codes = deps.codes;
    this.settings = deps.settings;
    this.maxAttempts = deps.maxAttempts ?? 20;
  }

  reserve(
    caller: ExecutorCaller,
    idempotencyKey: string,
    request: PurchaseRequest,
    requestHash: string,
  ): Promise<ReserveOutcome> {
    return this.submit<ReserveOutcome>({
      kind: 'reserve',
      caller,
      idempotencyKey,
      request,
      requestHash,
      checkGuards: false,
    });
  }

  commit(caller: ExecutorCaller, reservationKey: string): Promise<Reservation> {
    return this.submit<Reservation>({ kind: 'commit', caller, reservationKey, reason: null, now: null });
  }

  release(caller: ExecutorCaller, reservationKey: string, reason: string | null): Promise<Reservation> {
    return this.submit<Reservation>({ kind: 'release', caller, reservationKey, reason, now: null });
  }

  /** Expires the reservation if it is due at `now`; true when it did. */
  expire(reservationKey: string, now: Date): Promise<boolean> {
    return this.submit<boolean>({ kind: 'expire', caller: null, reservationKey, reason: null, now });
  }

  /** Runs an operator's command on a pool; answers the pool as it is after it. */
  poolCommand(poolId: number, command: VoucherPoolCommand, context: CommandContext): Promise<VoucherPool> {
    return this.submit<VoucherPool>({ kind: 'pool', poolId, command, context });
  }

  /** The pool as stored now: the cached state, caught up with whatever other writers appended. */
  async currentPool(poolId: number): Promise<VoucherPoolState> {
    if (this.pools.has(poolId)) await this.isCurrent(poolId);
    else await this.loadPool(poolId, undefined);
    return this.pools.get(poolId)?.state ?? voucherPoolDecider.initialState;
  }

  /** Refuses new commands and resolves once every accepted one is answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private submit<T>(
    spec: Omit<ReserveJob, keyof JobBase> | Omit<ReservationJob, keyof JobBase> | Omit<PoolJob, keyof JobBase>,
  ): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('the purchase executor is stopped'));
    return new Promise<T>((resolve, reject) => {
      this.inFlight++;
      const job = {
        ...spec,
        attempts: 0,
        solo: false,
        settled: false,
        absentPools: new Set<number>(),
        resolve,
        reject,
      } as Job;
      this.schedule(job);
    });
  }

  private settle(job: Job, ok: boolean, value: unknown): void {
    if (job.settled) return;
    job.settled = true;
    if (ok) job.resolve(value);
    else job.reject(value);
    if (--this.inFlight === 0) for (const resolve of this.drained.splice(0)) resolve();
  }

  /** Loads what the job needs, then queues it for the loop. */
  private schedule(job: Job): void {
    this.prepare(job).then(
      (queued) => {
        if (!queued) return;
        this.ready.push(job);
        this.kick();
      },
      (error: unknown) => this.settle(job, false, error),
    );
  }

  /** Sends a job back after its batch failed; gives up after maxAttempts. */
  private retry(job: Job, error: unknown): void {
    if (++job.attempts >= this.maxAttempts) this.settle(job, false, error);
    else this.schedule(job);
  }

  private async prepare(job: Job): Promise<boolean> {
    switch (job.kind) {
      case 'reserve':
        await Promise.all([
          ...job.request.items.map((i) => this.ensurePool(job, i.voucherPoolId)),
          job.checkGuards ? this.loadGuards(job) : undefined,
        ]);
        return true;
      case 'pool':
        await this.ensurePool(job, job.poolId);
        return true;
      default: {
        const reservation = await this.ensureReservation(job.reservationKey);
        if (!reservation) {
          if (job.kind === 'expire') this.settle(job, true, false);
          else this.settle(job, false, shopError('RESERVATION_NOT_FOUND', "reservation missing or not the caller's"));
          return false;
        }
        await Promise.all(reservation.state.details.items.map((i) => this.ensurePool(job, i.voucherPoolId)));
        return true;
      }
    }
  }

  private async ensurePool(job: Job, poolId: number): Promise<void> {
    const slot = this.pools.get(poolId);
    if (slot && !slot.stale) return;
    let load = this.poolLoads.get(poolId);
    if (!load) {
      load = this.loadPool(poolId, slot).finally(() => this.poolLoads.delete(poolId));
      this.poolLoads.set(poolId, load);
    }
    if (await load) job.absentPools.delete(poolId);
    else job.absentPools.add(poolId);
  }

  /** Reads a pool (from its cached revision on, if any); false when it has no stream. */
  private async loadPool(poolId: number, from: PoolSlot | undefined): Promise<boolean> {
    const stream = streams.voucherPool(poolId);
    const loaded = from
      ? await catchUp(this.store, voucherPoolDecider, stream, from)
      : await loadAggregate(this.store, voucherPoolDecider, stream);
    if (loaded.revision < 0) return false;
    // Install only over the entry the read started from: the loop may have stored newer state meanwhile.
    if (this.pools.get(poolId) === from) this.pools.set(poolId, { ...loaded, stale: false });
    return true;
  }

  private async ensureReservation(reservationKey: string): Promise<Loaded<Reservation> | undefined> {
    const cached = this.reservations.get(reservationKey);
    if (cached) return cached;
    const loaded = await loadAggregate(this.store, shopReservationDecider, streams.reservation(reservationKey));
    if (loaded.state.status === 'NONE') return undefined;
    const reservation = { state: loaded.state, revision: loaded.revision };
    if (!this.reservations.get(reservationKey)) this.reservations.set(reservationKey, reservation);
    return reservation;
  }

  private async loadGuards(job: ReserveJob): Promise<void> {
    const names = [
      streams.idempotencyGuard(job.caller.merchantId, job.idempotencyKey),
      streams.orderGuard(job.caller.merchantId, job.request.orderId),
    ];
    await Promise.all(
      names.map(async (name) => {
        const [first] = await this.store.readStream(name);
        if (first) {
          const data = first.data as GuardRecord;
          this.guards.set(name, { requestHash: data.requestHash, reservationKey: data.reservationKey });
        }
      }),
    );
    job.checkGuards = false;
  }

  private kick(): void {
    this.arrived?.();
    if (this.running || this.ready.length === 0) return;
    this.running = true;
    void this.loop();
  }

  /**
   * Decides the next batch while the previous one is being appended, then
   * appends it as soon as that one is stored: the database always has the
   * next batch waiting while this process decides the one after.
   */
  private async loop(): Promise<void> {
    let appending: Appending | undefined;
    try {
      for (;;) {
        if (this.ready.length === 0) {
          if (!appending) return;
          await Promise.race([appending.stored, new Promise<void>((resolve) => (this.arrived = resolve))]);
          this.arrived = undefined;
          if (appending.done) appending = undefined;
          continue;
        }
        // Let commands that are already arriving (answers just sent, requests in socket buffers) join this batch.
        await new Promise((resolve) => setImmediate(resolve));
        const batch = this.takeBatch();
        try {
          const now = this.clock.now();
          const time: BatchTime = {
            now,
            at: now.toISOString(),
            day: purchaseDay(now, this.settings.dayUtcOffsetMinutes),
          };
          const draft = new Draft(appending?.draft);
          const decisions: [Job, Decision][] = batch.map((job) => [job, this.decideSafely(job, draft, time)]);
          const issued = await this.issueVouchers(draft, time).then(
            () => undefined,
            (error: unknown) => ({ error }),
          );
          const parentStored = appending ? await appending.stored : true;
          appending = undefined;
          draft.parent = undefined;
          if (issued) this.afterFailedBatch(decisions, draft, issued.error);
          else if (!parentStored) this.decideAgain(decisions);
          else {
            const current: Appending = { draft, stored: this.storeBatch(decisions, draft), done: false };
            void current.stored.then(() => (current.done = true));
            appending = current;
          }
        } catch (error) {
          for (const job of batch) this.settle(job, false, error);
        }
      }
    } finally {
      this.running = false;
      this.kick();
    }
  }

  private takeBatch(): Job[] {
    const solo = this.ready.findIndex((j) => j.solo);
    if (solo >= 0) return this.ready.splice(solo, 1);
    return this.ready.splice(0, maxBatch);
  }

  /** The batch decided on top of a parent that failed: every decision may rest on it, so all are made again. */
  private decideAgain(decisions: [Job, Decision][]): void {
    for (const [job, d] of decisions) {
      if (d.kind === 'final') this.settle(job, d.ok, d.value);
      else this.schedule(job);
    }
  }

  /** Appends the batch and answers its commands; resolves true when it was stored. Never rejects. */
  private async storeBatch(decisions: [Job, Decision][], draft: Draft): Promise<boolean> {
    try {
      const { writes, owners } = this.writesOf(draft);
      const toCheck = [
        ...new Set(
          decisions.flatMap(([, d]) =>
            d.kind === 'refused' && d.poolId !== undefined && !draft.pools.has(d.poolId) ? [d.poolId] : [],
          ),
        ),
      ];
      const [appended, ...checks] = await Promise.allSettled([
        writes.length > 0 ? this.store.appendMany(writes.map((w) => w.write)) : Promise.resolve([] as AppendResult[]),
        ...toCheck.map((poolId) => this.isCurrent(poolId)),
      ]);
      if (appended!.status === 'rejected') {
        this.afterFailedBatch(decisions, draft, appended!.reason, owners);
        return false;
      }
      appended!.value.forEach((result, i) => writes[i]!.stored(result));
      const current = new Map(
        toCheck.map((poolId, i) => [poolId, checks[i]!.status === 'fulfilled' && checks[i]!.value === true]),
      );
      for (const [job, d] of decisions) {
        if (d.kind === 'write') {
          if (d.error) this.settle(job, false, d.error);
          else this.settle(job, true, d.value());
        } else if (d.kind === 'final') this.settle(job, d.ok, d.value);
        else if (d.kind === 'again') this.schedule(job);
        else if (d.poolId === undefined || draft.pools.has(d.poolId) || current.get(d.poolId))
          this.settle(job, false, d.error);
        else this.schedule(job); // the pool moved on: decide again on its current state
      }
      return true;
    } catch (error) {
      for (const [job] of decisions) this.settle(job, false, error);
      return false;
    }
  }

  private afterFailedBatch(
    decisions: [Job, Decision][],
    draft: Draft,
    error: unknown,
    owners = new Map<string, StreamOwner>(),
  ): void {
    const conflict = error instanceof WrongExpectedVersionError;
    const culprit = conflict ? owners.get(error.streamName) : undefined;
    if (culprit) culprit.markStale();
    else {
      // Unknown cause, or the append may have been stored after all: forget every state it touched.
      for (const poolId of draft.pools.keys()) this.markPoolStale(poolId);
      for (const key of draft.reservations.keys()) this.reservations.delete(key);
    }
    for (const [job, d] of decisions) {
      if (d.kind === 'final') this.settle(job, d.ok, d.value);
      else if (d.kind === 'again') this.schedule(job);
      else if (conflict) {
        // A guard or reservation conflict is one command's: the others go again without spending an attempt.
        if (culprit?.job && culprit.job !== job) this.schedule(job);
        else this.retry(job, error);
      } else if (decisions.length === 1) this.settle(job, false, error);
      else {
        job.solo = true;
        this.schedule(job);
      }
    }
  }

  private markPoolStale(poolId: number): void {
    const slot = this.pools.get(poolId);
    if (slot) this.pools.set(poolId, { ...slot, stale: true });
  }

  /** Whether the cached pool is still the stored one; if not, catches the cache up. */
  private async isCurrent(poolId: number): Promise<boolean> {
    const slot = this.pools.get(poolId);
    const events = await this.store.readStream(streams.voucherPool(poolId), {
      fromRevision: (slot?.revision ?? -1) + 1,
    });
    if (events.length === 0) return true;
    if (slot && this.pools.get(poolId) === slot) {
      const state = events.reduce(
        (s, e) => voucherPoolDecider.evolve(s, { type: e.type, data: e.data } as VoucherPoolEvent),
        slot.state,
      );
      this.pools.set(poolId, { state, revision: events[events.length - 1]!.revision, stale: false });
    }
    return false;
  }

  private decideSafely(job: Job, draft: Draft, time: BatchTime): Decision {
    try {
      if (job.kind === 'reserve') return this.decideReserve(job, draft, time);
      if (job.kind === 'pool') return this.decidePoolCommand(job, draft);
      return this.decideReservationChange(job, draft, time.now);
    } catch (error) {
      if (error instanceof NotReady) return { kind: 'again' };
      // A bug or broken invariant in one command must not sink the batch.
      return { kind: 'final', ok: false, value: error };
    }
  }

  /** The pool as the batch sees it: its draft, its parent's, else the cached state (which must be current). */
  private poolIn(draft: Draft, job: Job, poolId: number): Loaded<VoucherPoolState> {
    const drafted = draft.pools.get(poolId) ?? draft.inheritedPool(poolId);
    if (drafted) return drafted;
    const slot = this.pools.get(poolId);
    if (slot && !slot.stale) return slot;
    if (!slot && job.absentPools.has(poolId)) return absentPool;
    throw notReady;
  }

  private addPoolEvents(
    draft: Draft,
    poolId: number,
    base: Loaded<VoucherPoolState>,
    events: VoucherPoolEvent[],
    idOf: (e: VoucherPoolEvent) => string,
    metadata: EventMetadata,
  ): void {
    if (events.length === 0) return;
    const stream = streams.voucherPool(poolId);
    const entry = draft.pools.get(poolId) ?? { revision: base.revision, state: base.state, events: [] };
    entry.state = events.reduce(voucherPoolDecider.evolve, entry.state);
    entry.events.push(...events.map((e) => envelope(stream, idOf(e), e, metadata)));
    draft.pools.set(poolId, entry);
  }

  private decideReserve(job: ReserveJob, draft: Draft, { at, day }: BatchTime): Decision {
    const { caller, request } = job;
    const keyGuard = streams.idempotencyGuard(caller.merchantId, job.idempotencyKey);
    const orderGuard = streams.orderGuard(caller.merchantId, request.orderId);
    // The same key or order id earlier in this batch: its fate decides this one's answer.
    if (draft.claims(keyGuard) || draft.claims(orderGuard)) return { kind: 'again' };
    const used = this.guards.get(keyGuard);
    if (used) {
      if (this.settings.idempotencyMode === 'replay' && used.requestHash === job.requestHash) {
        return {
          kind: 'final',
          ok: true,
          value: { kind: 'replay', reservationKey: used.reservationKey } satisfies ReserveOutcome,
        };
      }
      const error = shopError('IDEMPOTENCY_KEY_REUSED', 'this X-Idempotency-Key was already used', {
        idempotencyKey: job.idempotencyKey,
      });
      return { kind: 'final', ok: false, value: error };
    }
    if (this.guards.get(orderGuard)) {
      return {
        kind: 'final',
        ok: false,
        value: shopError('ORDER_ID_USED', `order id ${request.orderId} is already used by another reservation`, {
          orderId: request.orderId,
        }),
      };
    }

    const reservationKey = randomUUID();
    const metadata = callerMetadata(caller, at);
    const decided: { poolId: number; base: Loaded<VoucherPoolState>; events: VoucherPoolEvent[] }[] = [];
    for (const item of request.items) {
      const base = this.poolIn(draft, job, item.voucherPoolId);
      try {
        const events = voucherPoolDecider.decide(
          {
            type: 'ReserveVoucherStock',
            reservationKey,
            merchantId: caller.merchantId,
            userId: caller.userId,
            quantity: item.quantity,
            unitPrice: item.unitPrice,
            currency: request.currency,
            day,
            at,
          },
          base.state,
        );
        decided.push({ poolId: item.voucherPoolId, base, events });
      } catch (error) {
        if (error instanceof DomainError) return { kind: 'refused', error, poolId: item.voucherPoolId };
        throw error;
      }
    }
    // Every pool agreed: only now does the batch change.
    for (const { poolId, base, events } of decided)
      this.addPoolEvents(draft, poolId, base, events, (e) => `${e.type}/${reservationKey}`, metadata);
    draft.placements.push({
      job,
      reservationKey,
      metadata,
      lines: request.items.map((item, i) => ({ ...item, pool: decided[i]!.base.state as VoucherPool })),
    });
    const record: GuardRecord = { requestHash: job.requestHash, reservationKey };
    const keyUsed: DomainEvent = {
      type: 'ShopIdempotencyKeyUsed',
      data: {
        merchantId: caller.merchantId,
        idempotencyKey: job.idempotencyKey,
        requestHash: job.requestHash,
        reservationKey,
        orderId: request.orderId,
        usedAt: at,
      },
    };
    const orderClaimed: DomainEvent = {
      type: 'ShopOrderIdClaimed',
      data: {
        merchantId: caller.merchantId,
        orderId: request.orderId,
        reservationKey,
        requestHash: job.requestHash,
        claimedAt: at,
      },
    };
    // Guard event ids name the reservation: a guard left by an earlier attempt is a conflict, never "the same append again".
    draft.guards.set(keyGuard, { record, event: envelope(keyGuard, reservationKey, keyUsed, metadata), job });
    draft.guards.set(orderGuard, { record, event: envelope(orderGuard, reservationKey, orderClaimed, metadata), job });
    return {
      kind: 'write',
      value: () =>
        ({
          kind: 'placed',
          reservation: draft.reservations.get(reservationKey)!.state as Reservation,
        }) satisfies ReserveOutcome,
    };
  }

  /** Gives the batch's new reservations their vouchers (one id block for the batch) and places them. */
  private async issueVouchers(draft: Draft, { now, at }: BatchTime): Promise<void> {
    const total = draft.placements.reduce((sum, p) => sum + p.lines.reduce((s, l) => s + l.quantity, 0), 0);
    if (total === 0) return;
    const ids = await this.issuedIds.take(total);
    let next = 0;
    const expiresAt = new Date(now.getTime() + this.settings.reservationTtlSeconds * 1000).toISOString();
    for (const { job, reservationKey, metadata, lines } of draft.placements) {
      const items: ReservedItem[] = lines.map(({ voucherPoolId, quantity, unitPrice, pool }) => ({
        voucherPoolId,
        quantity,
        unitPrice,
        vouchers: Array.from({ length: quantity }, () => {
          const issuedPromotionId = ids[next++]!;
          return {
            issuedPromotionId,
            encryptedCode: this.codes.encrypt(newVoucherCode(issuedPromotionId)),
            faceValue: pool.pricing.faceValue,
            sellingPrice: pool.pricing.sellingPrice,
            currency: pool.pricing.currency,
            purchasedAt: at,
            expiresAt: new Date(now.getTime() + pool.terms.validityDays * 86_400_000).toISOString(),
          };
        }),
      }));
      const details: ReservationDetails = {
        reservationKey,
        orderId: job.request.orderId,
        merchantId: job.caller.merchantId,
        userId: job.caller.userId,
        idempotencyKey: job.idempotencyKey,
        requestHash: job.requestHash,
        amount: job.request.amount,
        currency: job.request.currency,
        reservedAt: at,
        expiresAt,
        items,
      };
      const stream = streams.reservation(reservationKey);
      const events = shopReservationDecider.decide(
        { type: 'PlaceReservation', details },
        shopReservationDecider.initialState,
      );
      draft.reservations.set(reservationKey, {
        job,
        revision: -1,
        state: events.reduce(shopReservationDecider.evolve, shopReservationDecider.initialState),
        events: events.map((e) => envelope(stream, e.type, e, metadata)),
      });
    }
  }

  private decideReservationChange(job: ReservationJob, draft: Draft, now: Date): Decision {
    const key = job.reservationKey;
    const base = draft.reservations.get(key) ?? draft.inheritedReservation(key) ?? this.reservations.get(key);
    if (!base) throw notReady;
    const at = (job.now ?? now).toISOString();
    const metadata = job.caller
      ? callerMetadata(job.caller, at)
      : { correlationId: key, actor: { operator: 'reservation-expiry' }, occurredAt: at };
    const reservation = base.state;
    if (reservation.status === 'NONE') throw notReady;
    const { details } = reservation;
    if (job.caller && (details.merchantId !== job.caller.merchantId || details.userId !== job.caller.userId)) {
      return {
        kind: 'final',
        ok: false,
        value: shopError('RESERVATION_NOT_FOUND', "reservation missing or not the caller's"),
      };
    }

    let state: ShopReservationState = reservation;
    const events: ShopReservationEvent[] = [];
    const poolChanges: { poolId: number; base: Loaded<VoucherPoolState>; events: VoucherPoolEvent[] }[] = [];
    const apply = (decided: ShopReservationEvent[]) => {
      events.push(...decided);
      state = decided.reduce(shopReservationDecider.evolve, state);
    };
    const changeStock = (command: (reservationKey: string) => VoucherPoolCommand) => {
      for (const { voucherPoolId } of details.items) {
        const pool = this.poolIn(draft, job, voucherPoolId);
        poolChanges.push({
          poolId: voucherPoolId,
          base: pool,
          events: voucherPoolDecider.decide(command(key), pool.state),
        });
      }
    };
    const { autoExpiry } = this.settings;
    if (isExpiryDue(state, at, autoExpiry)) {
      apply(shopReservationDecider.decide({ type: 'ExpireReservation', now: at, autoExpiry }, state));
      changeStock((reservationKey) => ({ type: 'ReleaseVoucherStock', reservationKey, reason: 'EXPIRED', at }));
    }
    let error: DomainError | undefined;
    try {
      if (job.kind === 'commit') {
        apply(
          shopReservationDecider.decide({ type: 'CommitReservation', caller: job.caller!, now: at, autoExpiry }, state),
        );
        changeStock((reservationKey) => ({ type: 'SellVoucherStock', reservationKey, at }));
      } else if (job.kind === 'release') {
        apply(
          shopReservationDecider.decide(
            { type: 'ReleaseReservation', caller: job.caller!, reason: job.reason, now: at, autoExpiry },
            state,
          ),
        );
        changeStock((reservationKey) => ({ type: 'ReleaseVoucherStock', reservationKey, reason: 'RELEASED', at }));
      }
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      error = e;
    }
    if (events.length === 0) return error ? { kind: 'refused', error } : { kind: 'final', ok: true, value: false };

    const stream = streams.reservation(key);
    const entry = draft.reservations.get(key) ?? { job, revision: base.revision, state: reservation, events: [] };
    entry.job = job;
    entry.state = state;
    entry.events.push(...events.map((e) => envelope(stream, e.type, e, metadata)));
    draft.reservations.set(key, entry);
    for (const change of poolChanges)
      this.addPoolEvents(draft, change.poolId, change.base, change.events, (e) => `${e.type}/${key}`, metadata);
    const after = state;
    return { kind: 'write', value: () => (job.kind === 'expire' ? true : after), error };
  }

  private decidePoolCommand(job: PoolJob, draft: Draft): Decision {
    const base = this.poolIn(draft, job, job.poolId);
    let events: VoucherPoolEvent[];
    try {
      events = voucherPoolDecider.decide(job.command, base.state);
    } catch (error) {
      if (error instanceof DomainError) return { kind: 'refused', error, poolId: job.poolId };
      throw error;
    }
    const after = events.reduce(voucherPoolDecider.evolve, base.state) as VoucherPool;
    this.addPoolEvents(
      draft,
      job.poolId,
      base,
      events,
      (e) => `${job.context.commandId}/${e.type}`,
      eventMetadata(job.context, job.command.at),
    );
    return { kind: 'write', value: () => after };
  }

  /**
   * The batch's writes — guards first, then pools, then reservations: on a
   * store that writes streams one by one (EventStoreDB), a used guard, the
   * likeliest conflict, stops the batch before anything else is written —
   * each with what to do once stored and what went stale if it conflicts.
   */
  private writesOf(draft: Draft): {
    writes: { write: StreamWrite; stored: (result: AppendResult) => void }[];
    owners: Map<string, StreamOwner>;
  } {
    const writes: { write: StreamWrite; stored: (result: AppendResult) => void }[] = [];
    const owners = new Map<string, StreamOwner>();
    for (const [streamName, { record, event, job }] of draft.guards) {
      writes.push({
        write: { streamName, events: [event], expectedVersion: 'no_stream' },
        stored: () => this.guards.set(streamName, record),
      });
      owners.set(streamName, { markStale: () => (job.checkGuards = true), job });
    }
    for (const [poolId, entry] of draft.pools) {
      const streamName = streams.voucherPool(poolId);
      writes.push({
        write: { streamName, events: entry.events, expectedVersion: expectedVersionOf(entry.revision) },
        stored: (result) =>
          this.pools.set(poolId, { state: entry.state, revision: result.nextExpectedVersion, stale: false }),
      });
      owners.set(streamName, { markStale: () => this.markPoolStale(poolId) });
    }
    for (const [key, entry] of draft.reservations) {
      const streamName = streams.reservation(key);
      writes.push({
        write: { streamName, events: entry.events, expectedVersion: expectedVersionOf(entry.revision) },
        stored: (result) =>
          this.reservations.set(key, { state: entry.state as Reservation, revision: result.nextExpectedVersion }),
      });
      owners.set(streamName, { markStale: () => this.reservations.delete(key), job: entry.job });
    }
    return { writes, owners };
  }
}

function envelope(stream: string, idName: string, event: DomainEvent, metadata: EventMetadata): EventToAppend {
  return { id: nameBasedUuid(`${stream}/${idName}`), type: event.type, data: event.data, metadata };
}

function callerMetadata(caller: ExecutorCaller, at: string): EventMetadata {
  return {
    correlationId: caller.requestId,
    causationId: caller.requestId,
    requestId: caller.requestId,
    actor: { merchantId: caller.merchantId, userId: caller.userId },
    occurredAt: at,
  };
}
