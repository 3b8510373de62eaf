/**
 * Concurrent appends share one statement (docs/event-store.md, "Shared statements"): one append statement runs at a
 * time, and appends that come while it runs wait and go together in the next one; only when it has run for
 * `patienceMs` (a big batch, a lock held elsewhere) may more start beside it, up to `inFlight`. Each append keeps its
 * own outcome although the statement is all or nothing:
 * - appends of one statement never touch the same stream (one that does waits for the next statement), so a wrong
 *   expected version is about the stored stream alone, never another append's uncommitted write;
 * - on a conflict (`SharedConflict` names the write) its append fails alone and the others go again at once;
 * - on any other failure each append goes again in a statement of its own, so each meets its own outcome.
 * An append that finds no statement running goes at once, alone; one that comes while a statement runs waits for it to
 * end, at most `patienceMs`.
 */
import type { StreamWrite } from '../../../application/shared/event-store.js';

/** The statement refused the write at `writeIndex` (0-based over the statement's writes) with `error`. */
export class SharedConflict extends Error {
  constructor(
    readonly writeIndex: number,
    readonly error: Error,
  ) {
    super(error.message);
  }
}

export interface SharedStatementOptions {
  /** Statements in flight at most (default 2). */
  inFlight?: number;
  /** How long the statement in flight runs before another may start beside it (ms, default 5). */
  patienceMs?: number;
  /** Events per statement at most (default 2000): a bigger append still goes, alone. */
  maxEvents?: number;
}

interface Pending<R> {
  writes: StreamWrite[];
  streams: string[];
  events: number;
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
  /** Failed together with others once: goes alone from now on. */
  alone: boolean;
}

export class SharedStatements<R> {
  private readonly queue: Pending<R>[] = [];
  /** When each statement in flight started (performance.now()), by a number of its own. */
  private readonly started = new Map<number, number>();
  private statements = 0;
  private wake: NodeJS.Timeout | undefined;
  private readonly inFlight: number;
  private readonly patienceMs: number;
  private readonly maxEvents: number;

  /** `execute` runs one statement of writes, answering one result per write or throwing (SharedConflict or else). */
  constructor(
    private readonly execute: (writes: StreamWrite[]) => Promise<R[]>,
    options: SharedStatementOptions = {},
  ) {
    this.inFlight = Math.max(1, options.inFlight ?? 2);
    this.patienceMs = Math.max(0, options.patienceMs ?? 5);
    this.maxEvents = Math.max(1, options.maxEvents ?? 2000);
  }

  /** Writes `writes` atomically, in a statement it may share; answers one result per write, in order. */
  append(writes: StreamWrite[]): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({
        writes,
        streams: [...new Set(writes.map((w) => w.streamName))],
        events: writes.reduce((n, w) => n + w.events.length, 0),
        resolve,
        reject,
        alone: false,
      });
      this.next();
    });
  }

  private next(): void {
    while (this.queue.length > 0 && this.started.size < this.inFlight) {
      if (this.started.size > 0) {
        // Sharing the next statement beats running beside a quick one (one commit for several appends); waiting
        // behind a slow one does not.
        const wait = Math.min(...this.started.values()) + this.patienceMs - performance.now();
        if (wait > 0) {
          this.wake ??= setTimeout(() => {
            this.wake = undefined;
            this.next();
          }, Math.ceil(wait));
          return;
        }
      }
      const group = this.take();
      const id = ++this.statements;
      this.started.set(id, performance.now());
      void this.run(group).finally(() => {
        this.started.delete(id);
        this.next();
      });
    }
  }

  /** The first waiting append, and after it every waiting one that fits: no stream twice, events within the limit. */
  private take(): Pending<R>[] {
    const first = this.queue.shift()!;
    if (first.alone) return [first];
    const group = [first];
    const streams = new Set(first.streams);
    let events = first.events;
    for (let i = 0; i < this.queue.length;) {
      const p = this.queue[i]!;
      if (!p.alone && events + p.events <= this.maxEvents && p.streams.every((s) => !streams.has(s))) {
        group.push(p);
        p.streams.forEach((s) => streams.add(s));
        events += p.events;
        this.queue.splice(i, 1);
      } else i++;
    }
    return group;
  }

  private async run(group: Pending<R>[]): Promise<void> {
    try {
      const results = await this.execute(group.flatMap((p) => p.writes));
      let at = 0;
      for (const p of group) {
        p.resolve(results.slice(at, at + p.writes.length));
        at += p.writes.length;
      }
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error instanceof SharedConflict ? error.error : error);
        return;
      }
      let others: Pending<R>[] = group;
      if (error instanceof SharedConflict) {
        // Only the append of the refused write failed; nothing of the statement stayed, so the rest goes again.
        let at = 0;
        const failed = group.find((p) => (at += p.writes.length) > error.writeIndex)!;
        failed.reject(error.error);
        others = group.filter((p) => p !== failed);
      } else for (const p of others) p.alone = true;
      // Ahead of what came meanwhile: they were first.
      this.queue.unshift(...others);
    }
  }
}
