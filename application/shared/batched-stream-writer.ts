/**
 * A serial writer for hot streams: commands are prepared in parallel, decided in batches against in-memory state
 * and written with ONE appendMany per batch, the next batch decided while the previous one is appended. It knows
 * nothing of the aggregates: the caller's rules prepare and decide its jobs into a draft of its stream families.
 * docs/batched-stream-writer.md has the full account; the shop's flash sale is its first user.
 *
 * The one exception to the write engine (aggregate.ts; docs/event-store.md, "The write engine"), kept for the hot
 * pools: the engine's load–decide–append per command makes thousands of concurrent reserves on one pool conflict and
 * retry; this writer decides them against states in memory and appends a batch at once, with its own deterministic
 * ids, guard streams and idempotency keys. Nothing else writes around the engine.
 */
import { NotReady, planWrites, type BatchDraft, type DraftStreams, type PlannedWrite } from './batch-draft.js';
import { WrongExpectedVersionError, type AppendResult, type EventStore } from './event-store.js';

/** What the writer keeps on every job; the caller's job kinds extend it. */
export interface WriterJob {
  attempts: number;
  /** Sent back alone after a batch failed for a reason other than a conflict. */
  solo: boolean;
  settled: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A job as the caller submits it: without the writer's fields. */
export type JobSpec<J extends WriterJob> = J extends unknown ? Omit<J, keyof WriterJob> : never;

/** An answer known without the batch: from state that never changes (a guard, a missing stream...). */
export type FinalDecision = { kind: 'final'; ok: boolean; value: unknown };

export type Decision<J> =
  /** The job's events are in the batch: answer `value()` (or `error`, when the events record a refusal) once stored. */
  | { kind: 'write'; value: () => unknown; error?: unknown }
  /**
   * Refused. When decided from a cached state (`on`, `key`: its family in the draft and its key), answered only once
   * that state is known current: the batch wrote it, or a read made while the batch is appended found nothing new;
   * else decided again. Otherwise answered once the batch is stored.
   */
  | { kind: 'refused'; error: unknown; on?: DraftStreams<unknown, unknown, J>; key?: unknown }
  | FinalDecision
  /** Not ready (a state to load) or waiting for an earlier command of this batch: decide again later. */
  | { kind: 'again' };

/** What the caller plugs in: its jobs' preparation and decisions, its draft. `T`: what a batch's decisions share. */
export interface BatchRules<J extends WriterJob, D extends BatchDraft<J>, T> {
  /**
   * Loads what the job needs that is not in memory, outside the loop and in parallel with other jobs. Resolves
   * undefined when the job is ready to be decided, or its answer when it has one already; answers undefined at once
   * (no promise) when everything it needs is in memory already, the flash sale's usual case.
   */
  prepare(job: J): Promise<FinalDecision | undefined> | undefined;
  /** A new draft, on top of `parent`: the batch being appended while this one is decided. */
  draft(parent: D | undefined): D;
  /** Once per batch, before its jobs are decided (e.g. the clock reading). */
  begin(): T;
  /** Decides the job against `draft` and the states in memory; may throw notReady. */
  decide(job: J, draft: D, batch: T): Decision<J>;
  /** Once per batch, after its jobs are decided and before the append (e.g. ids taken from a sequence). */
  complete(draft: D, batch: T): Promise<void>;
}

/** A batch whose append is under way: `stored` tells whether it was stored. */
interface Appending<D> {
  draft: D;
  stored: Promise<boolean>;
  done: boolean;
}

export interface BatchedStreamWriterOptions {
  /** Named in the error a stopped writer answers. */
  name: string;
  /** Attempts in all per job when its batches fail on its streams. Default 20. */
  maxAttempts?: number;
  /** Jobs decided and written together at most. Default 500. */
  maxBatch?: number;
}

export class BatchedStreamWriter<J extends WriterJob, D extends BatchDraft<J>, T> {
  private readonly maxAttempts: number;
  private readonly maxBatch: number;

  private ready: J[] = [];
  private running = false;
  /** Wakes the loop when it waits for an append and a command becomes ready. */
  private arrived: (() => void) | undefined;
  private stopped = false;
  private inFlight = 0;
  private drained: (() => void)[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly rules: BatchRules<J, D, T>,
    private readonly options: BatchedStreamWriterOptions,
  ) {
    this.maxAttempts = options.maxAttempts ?? 20;
    this.maxBatch = options.maxBatch ?? 500;
  }

  /** Queues a job (the writer takes `spec` over and adds its own fields to it); resolves or rejects with its answer. */
  submit<V>(spec: JobSpec<J>): Promise<V> {
    if (this.stopped) return Promise.reject(new Error(`the ${this.options.name} is stopped`));
    return new Promise<V>((resolve, reject) => {
      this.inFlight++;
      // The spec becomes the job: copying it (a spread) cost more than deciding a refusal.
      const job = spec as unknown as J;
      job.attempts = 0;
      job.solo = false;
      job.settled = false;
      job.resolve = resolve as (value: unknown) => void;
      job.reject = reject;
      this.schedule(job);
    });
  }

  /** Refuses new jobs and resolves once every accepted one is answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private settle(job: J, ok: boolean, value: unknown): void {
    if (job.settled) return;
    job.settled = true;
    if (ok) job.resolve(value);
    else job.reject(value);
    if (--this.inFlight === 0) for (const resolve of this.drained.splice(0)) resolve();
  }

  /** Loads what the job needs, then queues it for the loop. */
  private schedule(job: J): void {
    const preparing = this.rules.prepare(job);
    if (!preparing) {
      this.ready.push(job);
      return this.kick();
    }
    preparing.then(
      (answer) => {
        if (answer) return this.settle(job, answer.ok, answer.value);
        this.ready.push(job);
        this.kick();
      },
      (error: unknown) => this.settle(job, false, error),
    );
  }

  /** Sends a job back after its batch failed; gives up after maxAttempts. */
  private retry(job: J, error: unknown): void {
    if (++job.attempts >= this.maxAttempts) this.settle(job, false, error);
    else this.schedule(job);
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
    let appending: Appending<D> | undefined;
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
          const shared = this.rules.begin();
          const draft = this.rules.draft(appending?.draft);
          const decisions: [J, Decision<J>][] = batch.map((job) => [job, this.decideSafely(job, draft, shared)]);
          const completed = await this.rules.complete(draft, shared).then(
            () => undefined,
            (error: unknown) => ({ error }),
          );
          const parentStored = appending ? await appending.stored : true;
          appending = undefined;
          draft.detach();
          if (completed) this.afterFailedBatch(decisions, draft, completed.error);
          else if (!parentStored) this.decideAgain(decisions);
          else {
            const current: Appending<D> = { draft, stored: this.storeBatch(decisions, draft), done: false };
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

  private takeBatch(): J[] {
    const solo = this.ready.findIndex((j) => j.solo);
    if (solo >= 0) return this.ready.splice(solo, 1);
    return this.ready.splice(0, this.maxBatch);
  }

  private decideSafely(job: J, draft: D, shared: T): Decision<J> {
    try {
      return this.rules.decide(job, draft, shared);
    } catch (error) {
      if (error instanceof NotReady) return { kind: 'again' };
      // A bug or broken invariant in one command must not sink the batch.
      return { kind: 'final', ok: false, value: error };
    }
  }

  /** The batch decided on top of a parent that failed: every decision may rest on it, so all are made again. */
  private decideAgain(decisions: [J, Decision<J>][]): void {
    for (const [job, d] of decisions) {
      if (d.kind === 'final') this.settle(job, d.ok, d.value);
      else this.schedule(job);
    }
  }

  /** Appends the batch and answers its commands; resolves true when it was stored. Never rejects. */
  private async storeBatch(decisions: [J, Decision<J>][], draft: D): Promise<boolean> {
    try {
      const { writes, byStream } = planWrites(draft);
      // Refusals decided from a cached state the batch does not write: is that state still the stored one?
      const checked = new Map<DraftStreams<unknown, unknown, J>, Map<unknown, boolean>>();
      const checks: Promise<void>[] = [];
      for (const [, d] of decisions) {
        if (d.kind !== 'refused' || !d.on || d.on.entries.has(d.key)) continue;
        const { on, key } = d;
        const { family } = on;
        if (!family.isCurrent) continue;
        let keys = checked.get(on);
        if (!keys) checked.set(on, (keys = new Map()));
        if (keys.has(key)) continue;
        const known = keys.set(key, false);
        checks.push(family.isCurrent(key).then((current) => void known.set(key, current === true)));
      }
      const [appended] = await Promise.allSettled([
        writes.length > 0 ? this.store.appendMany(writes.map((w) => w.write)) : Promise.resolve([] as AppendResult[]),
        ...checks,
      ]);
      if (appended!.status === 'rejected') {
        this.afterFailedBatch(decisions, draft, appended!.reason, byStream);
        return false;
      }
      appended!.value.forEach((result, i) => {
        const { family, key, entry } = writes[i]!;
        family.stored(key, entry, result);
      });
      for (const [job, d] of decisions) {
        if (d.kind === 'write') {
          if (d.error) this.settle(job, false, d.error);
          else this.settle(job, true, d.value());
        } else if (d.kind === 'final') this.settle(job, d.ok, d.value);
        else if (d.kind === 'again') this.schedule(job);
        else if (!d.on?.family.isCurrent || d.on.entries.has(d.key) || checked.get(d.on)?.get(d.key))
          this.settle(job, false, d.error);
        else this.schedule(job); // the state moved on: decide again on its current value
      }
      return true;
    } catch (error) {
      for (const [job] of decisions) this.settle(job, false, error);
      return false;
    }
  }

  private afterFailedBatch(
    decisions: [J, Decision<J>][],
    draft: D,
    error: unknown,
    byStream = new Map<string, PlannedWrite<J>>(),
  ): void {
    const conflict = error instanceof WrongExpectedVersionError;
    const culprit = conflict ? byStream.get(error.streamName) : undefined;
    if (culprit) culprit.family.conflicted(culprit.key, culprit.entry);
    else {
      // Unknown cause, or the append may have been stored after all: forget every state it touched.
      for (const { family, entries } of draft.streams) for (const key of entries.keys()) family.forget(key);
    }
    for (const [job, d] of decisions) {
      if (d.kind === 'final') this.settle(job, d.ok, d.value);
      else if (d.kind === 'again') this.schedule(job);
      else if (conflict) {
        // A conflict on one command's stream is that command's: the others go again without spending an attempt.
        if (culprit?.entry.job && culprit.entry.job !== job) this.schedule(job);
        else this.retry(job, error);
      } else if (decisions.length === 1) this.settle(job, false, error);
      else {
        job.solo = true;
        this.schedule(job);
      }
    }
  }
}
