/**
 * Stored timers (docs/process-managers.md, "Timers"): work due at a time, kept in the database so a restart forgets
 * none. The schedule is derived from events by a timer projector (projections/shared/timers.ts): an event schedules
 * a timer, a later one cancels it; so a timer exists exactly when the log says it should. A timer job
 * (infrastructure/shared/timer-job.ts) fires the due ones with the handler of their kind, one process at a time (a
 * lease), retrying a failure with backoff.
 */

/** A timer as its handler receives it. */
export interface DueTimer {
  /** Unique per timer projector; deterministic (derived from the aggregate and the event that scheduled it). */
  readonly id: string;
  readonly kind: string;
  /** ISO 8601 in UTC. */
  readonly dueAt: string;
  /** What the handler needs (an aggregate id, a version): JSON. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** Failed firings before this one. */
  readonly attempts: number;
}

export interface TimerHandler {
  /** The kind of timer it fires. */
  readonly kind: string;
  /**
   * Carries out the timer, typically a command whose decider ignores it when the aggregate moved on (so a repeat,
   * after a crash between the command and the mark, changes nothing). A throw retries it later.
   */
  fire(timer: DueTimer): Promise<void>;
}
