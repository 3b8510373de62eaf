/**
 * Turns of the event loop shared by the work of one process (docs/projections.md, "The event loop"). Work that runs
 * long without waiting on anything (applying a batch's events, parsing a fetched batch, a rebuild's pages) calls
 * `giveWay()` between its pieces: once the loop has been held `turnBudgetMs` since it last turned, the call waits for
 * the next turn, in which timers (lease renewals, the NATS client's heartbeat checks) and I/O (heartbeats, the other
 * consumers' answers) are served first. Under load a consumer's batch of 1,000 events held the loop for up to 3 s and
 * the other consumers' fetches failed with "heartbeats missed" (issue 31).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long work may hold the loop before it gives way (process-wide, whoever does it). */
export const turnBudgetMs = 10;

/** When the loop last turned as far as giveWay knows: the start of the turn the budget is counted from. */
let turnStarted = performance.now();
/** The next turn, once someone waits for it: everyone waiting resumes on it, and the budget starts afresh. */
let waiting: Promise<void> | undefined;

/**
 * Resolves at once while the current turn of the loop has been held less than the budget; otherwise on a later turn.
 * Waiters resume on the same turn but share its budget: each checks again, so a turn runs about one budget of work
 * whatever the number of workers (a worker's indivisible piece, e.g. one statement's parameters, on top).
 */
export async function giveWay(): Promise<void> {
  while (performance.now() - turnStarted >= turnBudgetMs) {
    waiting ??= nextTurn().then(() => {
      waiting = undefined;
      turnStarted = performance.now();
    });
    await waiting;
  }
}
