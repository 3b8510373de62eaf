/**
 * The purchase executor's jobs and what one of its batches decides: the shop's side of the batched stream writer
 * (docs/shop-purchase.md, "The executor").
 */
import {
  shopEventDecoder,
  type ShopEvent,
  type VoucherPoolEvent,
  streams,
  type PurchaseRequest,
  type ReservationCaller,
  type ShopReservationState,
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolCommand,
  type VoucherPoolState,
} from '../../domain/shop/index.js';
import { BatchDraft, DraftStreams, type StreamFamily } from '../shared/batch-draft.js';
import type { Decision, WriterJob } from '../shared/batched-stream-writer.js';
import { eventMetadata } from '../shared/command-context.js';
import { nameBasedUuid, type CommandContext, type Loaded } from '../shared/command-handler.js';
import type { EventMetadata, EventToAppend } from '../shared/event-store.js';
import type { HotStreams } from '../shared/hot-streams.js';

export interface ExecutorSettings {
  idempotencyMode: 'replay' | 'reject';
  reservationTtlSeconds: number;
  autoExpiry: boolean;
  dayUtcOffsetMinutes: number;
}

/** Who asks, and the context of the request's command (its ids and actor go into every event's metadata). */
export interface ExecutorCaller extends ReservationCaller {
  context: CommandContext;
}

export type Reservation = Exclude<ShopReservationState, { status: 'NONE' }>;

/** A reserve either placed a reservation or is a resend of the one placed under its idempotency key. */
export type ReserveOutcome = { kind: 'placed'; reservation: Reservation } | { kind: 'replay'; reservationKey: string };

interface PurchaseJobBase extends WriterJob {
  /** Pools prepare found without a stream. */
  absentPools: Set<number>;
}

export interface ReserveJob extends PurchaseJobBase {
  kind: 'reserve';
  caller: ExecutorCaller;
  idempotencyKey: string;
  request: PurchaseRequest;
  /**
   * The request's hash (purchase-service.ts, reserveRequestHash), computed on first use: a refusal never needs it,
   * and hashing was a tenth of a flash-sale refusal's own work.
   */
  requestHash: () => string;
  /** Read the guard streams before deciding (one of them was found to exist). */
  checkGuards: boolean;
}

export interface ReservationJob extends PurchaseJobBase {
  kind: 'commit' | 'release' | 'expire';
  /** null: the expiry sweep. */
  caller: ExecutorCaller | null;
  reservationKey: string;
  reason: string | null;
  /** The sweep's "now"; other commands use the batch's clock reading. */
  now: Date | null;
}

export interface PoolJob extends PurchaseJobBase {
  kind: 'pool';
  poolId: number;
  command: VoucherPoolCommand;
  context: CommandContext;
}

export type PurchaseJob = ReserveJob | ReservationJob | PoolJob;

export type PurchaseDecision = Decision<PurchaseJob>;

/** The batch's clock reading, in the forms its decisions need. */
export interface BatchTime {
  now: Date;
  at: string;
  /** Purchase day of `now` for the daily limits. */
  day: string;
}

/** What a reservation guard stream records: the request that claimed it and its reservation. */
export interface GuardRecord {
  requestHash: string;
  reservationKey: string;
}

/** A reserve decided on every pool, waiting for its vouchers (issued once per batch). */
export interface Placement {
  job: ReserveJob;
  reservationKey: string;
  metadata: EventMetadata;
  lines: { voucherPoolId: number; quantity: number; unitPrice: number; pool: VoucherPool }[];
}

export interface PurchaseFamilies {
  guards: StreamFamily<string, GuardRecord, PurchaseJob>;
  pools: HotStreams<number, VoucherPoolState>;
  reservations: StreamFamily<string, ShopReservationState, PurchaseJob>;
}

/** A batch's guards (keyed by stream name), pools, reservations and placements. */
export class PurchaseDraft extends BatchDraft<PurchaseJob> {
  readonly guards: DraftStreams<string, GuardRecord, PurchaseJob>;
  readonly pools: DraftStreams<number, VoucherPoolState, PurchaseJob>;
  readonly reservations: DraftStreams<string, ShopReservationState, PurchaseJob>;
  readonly placements: Placement[] = [];
  /**
   * Guards first, then pools, then reservations: on a store that writes streams one by one (EventStoreDB), a used
   * guard, the likeliest conflict, stops the batch before anything else is written.
   */
  readonly streams: readonly DraftStreams<unknown, unknown, PurchaseJob>[];

  constructor(families: PurchaseFamilies, parent: PurchaseDraft | undefined) {
    super();
    this.guards = new DraftStreams(families.guards, parent?.guards);
    this.pools = new DraftStreams<number, VoucherPoolState, PurchaseJob>(families.pools, parent?.pools);
    this.reservations = new DraftStreams(families.reservations, parent?.reservations);
    this.streams = [this.guards, this.pools, this.reservations];
  }
}

/** Adds a pool's events to the batch, on top of `base` (the pool as the batch sees it). */
export function addPoolEvents(
  draft: PurchaseDraft,
  poolId: number,
  base: Loaded<VoucherPoolState>,
  events: VoucherPoolEvent[],
  idOf: (e: VoucherPoolEvent) => string,
  metadata: EventMetadata,
): void {
  if (events.length === 0) return;
  const stream = streams.voucherPool(poolId);
  const entry = draft.pools.entries.get(poolId) ?? { revision: base.revision, state: base.state, events: [] };
  entry.state = events.reduce(voucherPoolDecider.evolve, entry.state);
  entry.events.push(...events.map((e) => envelope(stream, idOf(e), e, metadata)));
  draft.pools.entries.set(poolId, entry);
}

export function envelope(stream: string, idName: string, event: ShopEvent, metadata: EventMetadata): EventToAppend {
  const schemaVersion = shopEventDecoder.currentVersion(event.type);
  return { id: nameBasedUuid(`${stream}/${idName}`), type: event.type, schemaVersion, data: event.data, metadata };
}

export function callerMetadata(caller: ExecutorCaller, at: string): EventMetadata {
  return eventMetadata(caller.context, at);
}
