/**
 * One order of the order view (stream order-<merchantId>-<orderId>), as its webhooks tell it (docs/orders-ordering.md,
 * "Ordering"). Late, early and repeated webhooks are normal:
 * - every field the order shows keeps the sender's event_timestamp that set it, and a later-arriving event sets only
 *   the fields it is newer for (equal timestamps: by kind, created < updated < cancelled, then the greater
 *   fingerprint), so any delivery order ends in the same order;
 *   what it could not set is kept in its event as `stale`;
 * - an updated or cancelled before the created is parked, and applied (in event_timestamp order) when the created
 *   comes, unless it waited longer than the early window;
 * - a webhook whose fingerprint the order has seen is a repeat and changes nothing.
 * Pure: the fingerprint, the time and the limits come in the command.
 */
import { canonicalJson } from '../shared/canonical-json.js';
import type { Decider } from '../shared/decider.js';
import { ordersError } from './errors.js';
import type {
  OrderChangeData,
  OrderCreated,
  OrderEarlyEventDiscarded,
  OrderEvent,
  OrderEventParked,
  WebhookKind,
} from './events.js';
import {
  fieldsOf,
  immutableOrderFields,
  type OrderAmounts,
  type OrderChanges,
  type OrderFieldKey,
  type OrderSource,
} from './order-fields.js';

/** Where an event stands in the order of events: its event_timestamp, then its kind, then its fingerprint. */
export interface EventRank {
  at: number;
  kind: WebhookKind;
  fingerprint: string;
}

/** A field's value and the event that set it. */
export interface OrderFieldValue extends EventRank {
  value: unknown;
}

type Parked = OrderEventParked['data'];

export type OrderState =
  | { status: 'NONE' }
  | { status: 'AWAITING_CREATION'; merchantId: string; orderId: string; parked: Parked[]; seen: string[] }
  | {
      status: 'CREATED';
      merchantId: string;
      orderId: string;
      source: OrderSource;
      createdFingerprint: string;
      createdTimestamp: number;
      fields: Readonly<Record<OrderFieldKey, OrderFieldValue>>;
      seen: string[];
      /** The newest event_timestamp among the events applied. */
      lastEventTimestamp: number;
    };

export interface ReceiveOrderWebhook {
  type: 'ReceiveOrderWebhook';
  kind: WebhookKind;
  merchantId: string;
  orderId: string;
  eventTimestamp: number;
  fingerprint: string;
  requestId: string;
  order: OrderChanges;
  /** order.created's envelope fields. */
  source?: OrderSource;
  now: string;
  /** How long an early event waits for its created (ms). */
  earlyWindowMs: number;
  /** How many early events one order may hold. */
  maxEarlyEvents: number;
  /** How far event_timestamp may lie before and after `now` (ms). */
  maxAgeMs: number;
  maxFutureMs: number;
}

export type OrderCommand = ReceiveOrderWebhook;

type Created = Extract<OrderState, { status: 'CREATED' }>;

/** What a cancelled sets: its own status if it sends one, else CANCELLED. */
export function effectiveChanges(kind: WebhookKind, order: OrderChanges): OrderChanges {
  return kind === 'CANCELLED' ? { ...order, status: order.status ?? 'CANCELLED' } : order;
}

/**
 * Equal event_timestamps are broken by the kind (docs/orders-ordering.md, "Ordering"): a created comes first, a
 * cancellation last (an order created and cancelled in the same millisecond is cancelled; an update in the millisecond
 * of its creation is applied). Two events of one kind in one millisecond: the greater fingerprint, a hash of the
 * content, so the same whatever the delivery order.
 */
const kindOrder: Record<WebhookKind, number> = { CREATED: 0, UPDATED: 1, CANCELLED: 2 };

/** Negative when `a` comes before `b` in the order of events, 0 for the same event. */
export const compareEvents = (a: EventRank, b: EventRank): number =>
  a.at - b.at ||
  kindOrder[a.kind] - kindOrder[b.kind] ||
  (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0);

/** Whether the event `rank` wins over what set a field. */
const newer = (rank: EventRank, current: OrderFieldValue | undefined) => !current || compareEvents(rank, current) > 0;

const isImmutable = (key: string) => (immutableOrderFields as readonly string[]).includes(key);

/**
 * The first fixed field `order` gives another value than the created did (or one the created did not send), if any.
 * Compared as content: a customer sent again with its keys in another order is the same customer.
 */
function changedImmutable(state: Created, order: OrderChanges): (typeof immutableOrderFields)[number] | undefined {
  return immutableOrderFields.find((key) => {
    const sent = order[key];
    const fixed = state.fields[key];
    return sent !== undefined && (!fixed || canonicalJson(sent) !== canonicalJson(fixed.value));
  });
}

function changeEvent(
  state: Created,
  kind: Exclude<WebhookKind, 'CREATED'>,
  data: Omit<OrderChangeData, 'applied' | 'stale' | 'early'>,
  early: boolean,
): OrderEvent {
  const applied: OrderFieldKey[] = [];
  const stale: OrderFieldKey[] = [];
  for (const [key] of fieldsOf(effectiveChanges(kind, data.order))) {
    if (isImmutable(key)) continue; // equal to the created's (checked before): nothing to set
    const rank = { at: data.eventTimestamp, kind, fingerprint: data.fingerprint };
    (newer(rank, state.fields[key]) ? applied : stale).push(key);
  }
  const full = { ...data, applied, stale, early };
  return kind === 'UPDATED' ? { type: 'OrderUpdated', data: full } : { type: 'OrderCancelled', data: full };
}

function discarded(parked: Parked, reason: OrderEarlyEventDiscarded['data']['reason'], now: string): OrderEvent {
  const { merchantId, orderId, fingerprint, eventTimestamp } = parked;
  return {
    type: 'OrderEarlyEventDiscarded',
    data: { merchantId, orderId, fingerprint, eventTimestamp, reason, discardedAt: now },
  };
}

function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  const { kind, merchantId, orderId, eventTimestamp, fingerprint, requestId, order, now } = command;
  const received = { merchantId, orderId, eventTimestamp, fingerprint, requestId, receivedAt: now };
  if (state.status !== 'NONE' && (state.merchantId !== merchantId || state.orderId !== orderId))
    throw new Error(
      `order stream of ${state.merchantId}/${state.orderId} given a command for ${merchantId}/${orderId}`,
    );
  // Refused here, not before the command: a resend under its X-Request-Id, once the window has passed, is answered
  // from the key's record as any refusal of a resend is (docs/orders-ordering.md).
  const nowMs = Date.parse(now);
  if (eventTimestamp < nowMs - command.maxAgeMs || eventTimestamp > nowMs + command.maxFutureMs)
    throw ordersError(
      'EVENT_TIMESTAMP_OUT_OF_WINDOW',
      `event_timestamp must lie between ${Math.round(command.maxAgeMs / 3_600_000)} hours before and ${Math.round(command.maxFutureMs / 1000)} seconds after this service's clock (${nowMs})`,
      { field: 'event_timestamp' },
    );
  if (state.status !== 'NONE' && state.seen.includes(fingerprint)) return []; // a repeat

  if (kind === 'CREATED') {
    if (state.status === 'CREATED')
      throw ordersError(
        'ORDER_ALREADY_CREATED',
        `order ${orderId} was created already with other content; send changes as order.updated`,
        { orderId },
      );
    if (!command.source) throw new Error('an order.created command without its source');
    const created: OrderCreated = { type: 'OrderCreated', data: { ...received, source: command.source, order } };
    if (state.status === 'NONE') return [created];
    // The parked events, in the sender's order, against the order as each finds it.
    const events: OrderEvent[] = [created];
    let current = evolve(state, created) as Created;
    const oldestKept = Date.parse(now) - command.earlyWindowMs;
    const byTime = [...state.parked].sort((a, b) =>
      compareEvents(
        { at: a.eventTimestamp, kind: a.kind, fingerprint: a.fingerprint },
        { at: b.eventTimestamp, kind: b.kind, fingerprint: b.fingerprint },
      ),
    );
    for (const parked of byTime) {
      const event =
        Date.parse(parked.receivedAt) < oldestKept
          ? discarded(parked, 'EXPIRED', now)
          : changedImmutable(current, parked.order)
            ? discarded(parked, 'IMMUTABLE_FIELD_CHANGED', now)
            : changeEvent(current, parked.kind, parked, true);
      events.push(event);
      current = evolve(current, event) as Created;
    }
    return events;
  }

  if (state.status !== 'CREATED') {
    const parked = state.status === 'NONE' ? [] : state.parked;
    if (parked.length >= command.maxEarlyEvents)
      throw ordersError(
        'TOO_MANY_EARLY_EVENTS',
        `order ${orderId} has ${parked.length} events waiting for its order.created; send order.created first`,
        { orderId, limit: command.maxEarlyEvents },
      );
    return [{ type: 'OrderEventParked', data: { ...received, kind, order } }];
  }

  const immutable = changedImmutable(state, order);
  if (immutable) {
    // A fixed string is named (the sender sees what its created said); the customer is not repeated back.
    const fixed = state.fields[immutable]?.value;
    const shown =
      fixed === undefined ? ' (the created did not send it)' : typeof fixed === 'string' ? ` (it is ${fixed})` : '';
    throw ordersError('ORDER_FIELD_IMMUTABLE', `order.${immutable} is set by order.created and cannot change${shown}`, {
      field: `order.${immutable}`,
    });
  }
  return [changeEvent(state, kind, { ...received, order }, false)];
}

/** The value of one field of the merge in `changes`. */
function valueOf(changes: OrderChanges, key: OrderFieldKey): unknown {
  if (key.startsWith('amounts.')) return changes.amounts?.[key.slice('amounts.'.length) as keyof OrderAmounts];
  return changes[key as keyof OrderChanges];
}

function evolve(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderEventParked': {
      const d = event.data;
      const awaiting =
        state.status === 'AWAITING_CREATION'
          ? state
          : {
              status: 'AWAITING_CREATION' as const,
              merchantId: d.merchantId,
              orderId: d.orderId,
              parked: [],
              seen: [],
            };
      if (awaiting.status !== 'AWAITING_CREATION') return state;
      return { ...awaiting, parked: [...awaiting.parked, d], seen: [...awaiting.seen, d.fingerprint] };
    }
    case 'OrderCreated': {
      const d = event.data;
      const fields: Record<OrderFieldKey, OrderFieldValue> = {};
      for (const [key, value] of fieldsOf(d.order))
        fields[key] = { value, at: d.eventTimestamp, kind: 'CREATED', fingerprint: d.fingerprint };
      return {
        status: 'CREATED',
        merchantId: d.merchantId,
        orderId: d.orderId,
        source: d.source,
        createdFingerprint: d.fingerprint,
        createdTimestamp: d.eventTimestamp,
        fields,
        seen: [...(state.status === 'AWAITING_CREATION' ? state.seen : []), d.fingerprint],
        lastEventTimestamp: d.eventTimestamp,
      };
    }
    case 'OrderUpdated':
    case 'OrderCancelled': {
      if (state.status !== 'CREATED') return state;
      const d = event.data;
      const kind = event.type === 'OrderUpdated' ? 'UPDATED' : 'CANCELLED';
      const changes = effectiveChanges(kind, d.order);
      const fields = { ...state.fields };
      for (const key of d.applied)
        fields[key] = { value: valueOf(changes, key), at: d.eventTimestamp, kind, fingerprint: d.fingerprint };
      return {
        ...state,
        fields,
        seen: state.seen.includes(d.fingerprint) ? state.seen : [...state.seen, d.fingerprint],
        lastEventTimestamp: Math.max(state.lastEventTimestamp, d.eventTimestamp),
      };
    }
    case 'OrderEarlyEventDiscarded':
      // Forgotten, so that the same event sent again once the order exists is applied, not taken for a repeat.
      if (state.status === 'NONE') return state;
      return { ...state, seen: state.seen.filter((f) => f !== event.data.fingerprint) };
  }
}

export const orderDecider: Decider<OrderCommand, OrderState, OrderEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};

/** The order as it shows now: each field's winning value, amounts regrouped. */
export function currentOrder(fields: Readonly<Record<OrderFieldKey, OrderFieldValue>>): OrderChanges {
  const out: Record<string, unknown> = {};
  const amounts: Record<string, unknown> = {};
  for (const [key, { value }] of Object.entries(fields)) {
    if (key.startsWith('amounts.')) amounts[key.slice('amounts.'.length)] = value;
    else out[key] = value;
  }
  if (Object.keys(amounts).length) out.amounts = amounts;
  return out as OrderChanges;
}

/** `current` with the `applied` fields of an update or cancellation set (what evolve does, for read models). */
export function applyChanges(
  current: OrderChanges,
  kind: Exclude<WebhookKind, 'CREATED'>,
  changes: OrderChanges,
  applied: readonly OrderFieldKey[],
): OrderChanges {
  const effective = effectiveChanges(kind, changes);
  const next: Record<string, unknown> = { ...current };
  for (const key of applied) {
    if (key.startsWith('amounts.'))
      next.amounts = { ...(next.amounts as object), [key.slice(8)]: valueOf(effective, key) };
    else next[key] = valueOf(effective, key);
  }
  return next as OrderChanges;
}
