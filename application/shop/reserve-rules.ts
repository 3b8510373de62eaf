/**
 * The shop's reserve, as the purchase executor decides it: the idempotency key and order id guards, stock and the
 * per-buyer limits on every pool of the request (all or nothing), then the vouchers issued once per batch
 * (docs/shop-purchase.md: invariants, idempotency and order ids).
 */
import { randomUUID } from 'node:crypto';
import {
  shopDecoders,
  type ShopIdempotencyKeyUsed,
  type ShopOrderIdClaimed,
  streams,
  type ReservedItem,
  type VoucherPoolEvent,
  shopError,
  shopReservationDecider,
  type ReservationDetails,
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolState,
} from '../../domain/shop/index.js';
import { DomainError } from '../../domain/shared/errors.js';
import type { StreamFamily } from '../shared/batch-draft.js';
import type { FinalDecision } from '../shared/batched-stream-writer.js';
import type { Loaded } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { HotStreams } from '../shared/hot-streams.js';
import { BoundedCache } from '../shared/bounded-cache.js';
import type { IdReservoir } from '../shared/id-reservoir.js';
import {
  addPoolEvents,
  callerMetadata,
  envelope,
  type BatchTime,
  type ExecutorSettings,
  type GuardRecord,
  type PurchaseDecision,
  type PurchaseDraft,
  type PurchaseJob,
  type Reservation,
  type ReserveJob,
  type ReserveOutcome,
} from './purchase-batch.js';
import { newVoucherCode, type VoucherCodeCipher } from './voucher-codes.js';

/** Guards seen, so a resend is answered without a failed append (about 100 bytes each). */
const guardCacheLimit = 100_000;

export class ReserveRules {
  /** Guard streams known to exist, by stream name: only stored ones. */
  private readonly guards = new BoundedCache<string, GuardRecord>(guardCacheLimit);

  /** Guards are written with 'no_stream'; one that exists already is read before its command is decided again. */
  readonly guardStreams: StreamFamily<string, GuardRecord, PurchaseJob> = {
    streamName: (name) => name,
    stored: (name, entry) => this.guards.set(name, entry.state),
    conflicted: (_name, { job }) => {
      if (job?.kind === 'reserve') job.checkGuards = true;
    },
    forget: () => undefined,
  };

  constructor(
    private readonly deps: {
      store: EventStore;
      pools: HotStreams<number, VoucherPoolState>;
      issuedIds: IdReservoir;
      codes: VoucherCodeCipher;
      settings: ExecutorSettings;
    },
  ) {}

  prepare(job: ReserveJob): Promise<FinalDecision | undefined> | undefined {
    const { pools } = this.deps;
    const loads: Promise<void>[] = [];
    for (const { voucherPoolId } of job.request.items)
      if (!pools.isReady(voucherPoolId)) loads.push(pools.ensure(voucherPoolId, job.absentPools));
    if (job.checkGuards) loads.push(this.loadGuards(job));
    // Everything in memory (a sale under way): no promise at all.
    return loads.length === 0 ? undefined : Promise.all(loads).then(() => undefined);
  }

  decide(job: ReserveJob, draft: PurchaseDraft, { at, day }: BatchTime): PurchaseDecision {
    const { caller, request } = job;
    const keyGuard = streams.idempotencyGuard(caller.merchantId, job.idempotencyKey);
    const orderGuard = streams.orderGuard(caller.merchantId, request.orderId);
    // The same key or order id earlier in this batch: its fate decides this one's answer.
    if (draft.guards.claims(keyGuard) || draft.guards.claims(orderGuard)) return { kind: 'again' };
    const used = this.guards.get(keyGuard);
    if (used) {
      if (this.deps.settings.idempotencyMode === 'replay' && used.requestHash === job.requestHash()) {
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
    const decided: { poolId: number; base: Loaded<VoucherPoolState>; events: VoucherPoolEvent[] }[] = [];
    for (const item of request.items) {
      const base = this.deps.pools.stateIn(draft.pools, item.voucherPoolId, job.absentPools);
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
            now: at,
          },
          base.state,
        );
        decided.push({ poolId: item.voucherPoolId, base, events });
      } catch (error) {
        if (error instanceof DomainError) return { kind: 'refused', error, on: draft.pools, key: item.voucherPoolId };
        throw error;
      }
    }
    // Every pool agreed: only now does the batch change (and the metadata, which names the command, is made).
    const metadata = callerMetadata(caller, at);
    for (const { poolId, base, events } of decided)
      addPoolEvents(draft, poolId, base, events, (e) => `${e.type}/${reservationKey}`, metadata);
    draft.placements.push({
      job,
      reservationKey,
      metadata,
      lines: request.items.map((item, i) => ({ ...item, pool: decided[i]!.base.state as VoucherPool })),
    });
    const requestHash = job.requestHash();
    const record: GuardRecord = { requestHash, reservationKey };
    const keyUsed: ShopIdempotencyKeyUsed = {
      type: 'ShopIdempotencyKeyUsed',
      data: {
        merchantId: caller.merchantId,
        idempotencyKey: job.idempotencyKey,
        requestHash,
        reservationKey,
        orderId: request.orderId,
        usedAt: at,
      },
    };
    const orderClaimed: ShopOrderIdClaimed = {
      type: 'ShopOrderIdClaimed',
      data: {
        merchantId: caller.merchantId,
        orderId: request.orderId,
        reservationKey,
        requestHash,
        claimedAt: at,
      },
    };
    // Guard event ids name the reservation: a guard left by an earlier attempt is a conflict, never "the same append again".
    const { entries } = draft.guards;
    entries.set(keyGuard, {
      revision: -1,
      state: record,
      events: [envelope(keyGuard, reservationKey, keyUsed, metadata)],
      job,
    });
    entries.set(orderGuard, {
      revision: -1,
      state: record,
      events: [envelope(orderGuard, reservationKey, orderClaimed, metadata)],
      job,
    });
    return {
      kind: 'write',
      value: () =>
        ({
          kind: 'placed',
          reservation: draft.reservations.entries.get(reservationKey)!.state as Reservation,
        }) satisfies ReserveOutcome,
    };
  }

  /** Gives the batch's new reservations their vouchers (one id block for the batch) and places them. */
  async issueVouchers(draft: PurchaseDraft, { now, at }: BatchTime): Promise<void> {
    const total = draft.placements.reduce((sum, p) => sum + p.lines.reduce((s, l) => s + l.quantity, 0), 0);
    if (total === 0) return;
    const ids = await this.deps.issuedIds.take(total);
    let next = 0;
    const expiresAt = new Date(now.getTime() + this.deps.settings.reservationTtlSeconds * 1000).toISOString();
    for (const { job, reservationKey, metadata, lines } of draft.placements) {
      const items: ReservedItem[] = lines.map(({ voucherPoolId, quantity, unitPrice, pool }) => ({
        voucherPoolId,
        quantity,
        unitPrice,
        vouchers: Array.from({ length: quantity }, () => {
          const issuedPromotionId = ids[next++]!;
          return {
            issuedPromotionId,
            encryptedCode: this.deps.codes.encrypt(newVoucherCode(issuedPromotionId), {
              reservationKey,
              issuedPromotionId,
            }),
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
        requestHash: job.requestHash(),
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
      draft.reservations.entries.set(reservationKey, {
        job,
        revision: -1,
        state: events.reduce(shopReservationDecider.evolve, shopReservationDecider.initialState),
        events: events.map((e) => envelope(stream, e.type, e, metadata)),
      });
    }
  }

  private async loadGuards(job: ReserveJob): Promise<void> {
    const names = [
      streams.idempotencyGuard(job.caller.merchantId, job.idempotencyKey),
      streams.orderGuard(job.caller.merchantId, job.request.orderId),
    ];
    await Promise.all(
      names.map(async (name) => {
        const [first] = await this.deps.store.readStream(name);
        if (first) {
          const { data } = shopDecoders.guard.decode(first);
          this.guards.set(name, { requestHash: data.requestHash, reservationKey: data.reservationKey });
        }
      }),
    );
    job.checkGuards = false;
  }
}
