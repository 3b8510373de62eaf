import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The one Prometheus registry of the process; /metrics serves it. Global
 * positions are opaque strings, so they are exported as the `position` label
 * of an info gauge (value 1, one series per relay or projector).
 */
export const metricsRegistry = new Registry();

export const relayEventsPublished = new Counter({
  name: 'relay_events_published_total',
  help: 'Events the relay published to the bus.',
  labelNames: ['relay'],
  registers: [metricsRegistry],
});

export const relayPosition = new Gauge({
  name: 'relay_position_info',
  help: 'Global position of the last event the relay published (label position).',
  labelNames: ['relay', 'position'],
  registers: [metricsRegistry],
});

export const relayLastEventTimestamp = new Gauge({
  name: 'relay_last_event_recorded_timestamp_seconds',
  help: 'When the last event the relay published was recorded in the store (Unix seconds).',
  labelNames: ['relay'],
  registers: [metricsRegistry],
});

export const projectionEventsApplied = new Counter({
  name: 'projection_events_applied_total',
  help: 'Events a projector applied to its read model.',
  labelNames: ['projector'],
  registers: [metricsRegistry],
});

export const projectionDeadLetters = new Counter({
  name: 'projection_dead_letters_total',
  help: 'Events a projector gave up on and wrote to dead_letters.',
  labelNames: ['projector'],
  registers: [metricsRegistry],
});

export const projectionLagEvents = new Gauge({
  name: 'projection_lag_events',
  help: 'Events published to the bus that the projector has not yet acknowledged.',
  labelNames: ['projector'],
  registers: [metricsRegistry],
});

export const projectionLagSeconds = new Gauge({
  name: 'projection_lag_seconds',
  help: 'Now minus the recorded time of the last applied event while events are pending; 0 when caught up.',
  labelNames: ['projector'],
  registers: [metricsRegistry],
});

export const projectionLagClosing = new Gauge({
  name: 'projection_lag_closing_events_per_second',
  help: 'Events per second projection_lag_events fell over the last 30 s (negative: it grew).',
  labelNames: ['projector'],
  registers: [metricsRegistry],
});

export const projectionCatchingUp = new Gauge({
  name: 'projection_catching_up',
  help: '1 while the projector, far behind, reads the event store instead of the bus (docs/projections.md, "Catching up").',
  labelNames: ['projector'],
  registers: [metricsRegistry],
});

export const projectionPosition = new Gauge({
  name: 'projection_last_applied_position_info',
  help: 'Global position of the last event the projector applied (label position).',
  labelNames: ['projector', 'position'],
  registers: [metricsRegistry],
});

const shownPositions = new Map<Gauge<string>, Map<string, string>>();

/** Shows `position` as the one series of `gauge` for `key`, dropping the one shown before. */
export function setPositionInfo(gauge: Gauge<string>, key: Record<string, string>, position: string): void {
  const shown = shownPositions.get(gauge) ?? new Map<string, string>();
  shownPositions.set(gauge, shown);
  const id = JSON.stringify(key);
  const previous = shown.get(id);
  if (previous !== undefined) gauge.remove({ ...key, position: previous });
  gauge.set({ ...key, position }, 1);
  shown.set(id, position);
}

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request reaching the API to its answer being handed to the socket, per route (its pattern, or "unmatched") and status.',
  labelNames: ['method', 'route', 'status_code'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const timersFired = new Counter({
  name: 'timers_fired_total',
  help: 'Stored timers fired successfully, by kind.',
  labelNames: ['kind'],
  registers: [metricsRegistry],
});

export const timersFailed = new Counter({
  name: 'timers_failed_total',
  help: 'Failed firings of stored timers (each retried later with backoff), by kind.',
  labelNames: ['kind'],
  registers: [metricsRegistry],
});

export const relayBlocked = new Gauge({
  name: 'relay_blocked',
  help: '1 while the relay refuses to publish because the event stream holds an event the event log does not (a database restored from an older backup; docs/projections.md, "Recovery").',
  labelNames: ['relay'],
  registers: [metricsRegistry],
});
