/**
 * Commit, release and expire of a shop reservation, as the purchase executor decides them: the reservation's
 * change and the matching stock change on each of its pools, in one batch (docs/shop-purchase.md, "Expiry").
 */
import { DomainError } from '../../domain/shared/errors.js';
import {
  streams,
  type ShopReservationEvent,
  type VoucherPoolEvent,
  shopError,
  isExpiryDue,
  shopReservationDecider,
  type ShopReservationState,
  voucherPoolDecider,
  type VoucherPoolCommand,
  type VoucherPoolState,
  shopDecoders,
} from '../../domain/shop/index.js';
import { notReady, type StreamFamily } from '../shared/batch-draft.js';
import type { FinalDecision } from '../shared/batched-stream-writer.js';
import { loadAggregate, type Loaded } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { HotStreams } from '../shared/hot-streams.js';
import { BoundedCache } from '../shared/bounded-cache.js';
import {
  addPoolEvents,
  callerMetadata,
  envelope,
  type ExecutorSettings,
  type PurchaseDecision,
  type PurchaseDraft,
  type PurchaseJob,
  type Reservation,
  type ReservationJob,
} from './purchase-batch.js';

/** Reservations kept for commit/release right after reserve (each holds its vouchers: about 1-2 KB). */
const reservationCacheLimit = 10_000;

export class ReservationRules {
  private readonly reservations = new BoundedCache<string, Loaded<Reservation>>(reservationCacheLimit);

  /** Reservations as stored; one that conflicts or may have been written is forgotten and read again. */
  readonly reservationStreams: StreamFamily<string, ShopReservationState, PurchaseJob> = {
    streamName: (key) => streams.reservation(key),
    stored: (key, entry, result) =>
      this.reservations.set(key, { state: entry.state as Reservation, revision: result.nextExpectedVersion }),
    conflicted: (key) => this.reservations.delete(key),
    forget: (key) => this.reservations.delete(key),
  };

  constructor(
    private readonly deps: {
      store: EventStore;
      pools: HotStreams<number, VoucherPoolState>;
      settings: ExecutorSettings;
    },
  ) {}

  async prepare(job: ReservationJob): Promise<FinalDecision | undefined> {
    const reservation = await this.ensureReservation(job.reservationKey);
    if (!reservation) {
      if (job.kind === 'expire') return { kind: 'final', ok: true, value: false };
      return {
        kind: 'final',
        ok: false,
        value: shopError('RESERVATION_NOT_FOUND', "reservation missing or not the caller's"),
      };
    }
    await Promise.all(
      reservation.state.details.items.map((i) => this.deps.pools.ensure(i.voucherPoolId, job.absentPools)),
    );
    return undefined;
  }

  decide(job: ReservationJob, draft: PurchaseDraft, now: Date): PurchaseDecision {
    const key = job.reservationKey;
    const base = draft.reservations.entries.get(key) ?? draft.reservations.inherited(key) ?? this.reservations.get(key);
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
        const pool = this.deps.pools.stateIn(draft.pools, voucherPoolId, job.absentPools);
        poolChanges.push({
          poolId: voucherPoolId,
          base: pool,
          events: voucherPoolDecider.decide(command(key), pool.state),
        });
      }
    };
    const { autoExpiry } = this.deps.settings;
    if (isExpiryDue(state, at, autoExpiry)) {
      apply(shopReservationDecider.decide({ type: 'ExpireReservation', now: at, autoExpiry }, state));
      changeStock((reservationKey) => ({ type: 'ReleaseVoucherStock', reservationKey, reason: 'EXPIRED', now: at }));
    }
    let error: DomainError | undefined;
    try {
      if (job.kind === 'commit') {
        apply(
          shopReservationDecider.decide({ type: 'CommitReservation', caller: job.caller!, now: at, autoExpiry }, state),
        );
        changeStock((reservationKey) => ({ type: 'SellVoucherStock', reservationKey, now: at }));
      } else if (job.kind === 'release') {
        apply(
          shopReservationDecider.decide(
            { type: 'ReleaseReservation', caller: job.caller!, reason: job.reason, now: at, autoExpiry },
            state,
          ),
        );
        changeStock((reservationKey) => ({ type: 'ReleaseVoucherStock', reservationKey, reason: 'RELEASED', now: at }));
      }
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      error = e;
    }
    if (events.length === 0) return error ? { kind: 'refused', error } : { kind: 'final', ok: true, value: false };

    const stream = streams.reservation(key);
    const entry = draft.reservations.entries.get(key) ?? {
      job,
      revision: base.revision,
      state: reservation,
      events: [],
    };
    entry.job = job;
    entry.state = state;
    entry.events.push(...events.map((e) => envelope(stream, e.type, e, metadata)));
    draft.reservations.entries.set(key, entry);
    for (const change of poolChanges)
      addPoolEvents(draft, change.poolId, change.base, change.events, (e) => `${e.type}/${key}`, metadata);
    const after = state;
    return { kind: 'write', value: () => (job.kind === 'expire' ? true : after), error };
  }

  private async ensureReservation(reservationKey: string): Promise<Loaded<Reservation> | undefined> {
    const cached = this.reservations.get(reservationKey);
    if (cached) return cached;
    const loaded = await loadAggregate(
      this.deps.store,
      shopReservationDecider,
      shopDecoders.reservation,
      streams.reservation(reservationKey),
    );
    if (loaded.state.status === 'NONE') return undefined;
    const reservation = { state: loaded.state, revision: loaded.revision };
    if (!this.reservations.get(reservationKey)) this.reservations.set(reservationKey, reservation);
    return reservation;
  }
}
