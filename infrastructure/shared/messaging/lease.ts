import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { pause } from '../pause.js';

/** The owner ids this process made: a lease held by one of them is held by a live process. */
const ownersOfThisProcess = new Set<string>();

/** Who holds a lease when the caller names no one: this host and process, plus a random part. */
export function defaultLeaseOwner(): string {
  const owner = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  ownersOfThisProcess.add(owner);
  return owner;
}

/**
 * Whether a lease's owner is a process of this host that is gone (killed -9, crashed): its lease may be taken at once
 * rather than at expiry (docs/projections.md, "Leases"). Only default owner ids (`<host>-<pid>-<random>`) of this
 * host tell: a pid that no longer runs, or this process's own pid with an id this process never made (an earlier life
 * under the same pid, as a restarted container's process 1). Anything else (another host, a live pid, an id chosen
 * by the caller) is judged by the lease's expiry alone.
 */
export function ownerIsGone(owner: string): boolean {
  const parts = /^(.*)-(\d+)-([0-9a-f]{8})$/.exec(owner);
  if (!parts || parts[1] !== os.hostname()) return false;
  const pid = Number(parts[2]);
  if (pid === process.pid) return !ownersOfThisProcess.has(owner);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * A named lease held in the `leases` row, so exactly one process does a job
 * (relaying the log, applying one projector) at a time. Unlike a session advisory lock it survives
 * connection poolers, and a holder that dies loses it at `expires_at`.
 * Expiry is judged by the database clock; locally the holder counts its lease
 * from the moment it asked, so it believes it holds it no longer than the row says.
 */
export class Lease {
  private heldUntil = 0;
  private renewedAt = 0;

  constructor(
    private readonly knex: Knex,
    readonly name: string,
    readonly ownerId: string,
    readonly ttlMs: number,
  ) {}

  /** True while the lease is ours and has not run out. */
  get held(): boolean {
    return performance.now() < this.heldUntil;
  }

  /** Milliseconds until the lease runs out as far as this process knows (0 when not held). */
  get remainingMs(): number {
    return Math.max(0, this.heldUntil - performance.now());
  }

  /** A third of the time to live has passed since the last renewal. */
  get renewalDue(): boolean {
    return performance.now() - this.renewedAt >= this.ttlMs / 3;
  }

  /**
   * Takes the lease if it is free, expired, already ours, or held by a process of this host that is gone
   * (`ownerIsGone`); true when we hold it.
   */
  async acquire(): Promise<boolean> {
    const current = await this.knex('leases')
      .where({ name: this.name })
      .first<{ owner_id: string } | undefined>('owner_id');
    const gone = current && current.owner_id !== this.ownerId && ownerIsGone(current.owner_id) ? current.owner_id : '';
    const taken = await this.attempt(
      `INSERT INTO leases (name, owner_id, acquired_at, expires_at)
       VALUES (:name, :owner, clock_timestamp(), clock_timestamp() + :ttl * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET
         owner_id = EXCLUDED.owner_id,
         acquired_at = CASE WHEN leases.owner_id = EXCLUDED.owner_id AND leases.expires_at > clock_timestamp()
                            THEN leases.acquired_at ELSE EXCLUDED.acquired_at END,
         expires_at = EXCLUDED.expires_at
       WHERE leases.owner_id = EXCLUDED.owner_id OR leases.expires_at <= clock_timestamp() OR leases.owner_id = :gone
       RETURNING owner_id`,
      { gone },
    );
    if (taken && gone) this.takenFromGone = gone;
    return taken;
  }

  /** The owner this lease was last taken from before its expiry because its process was gone (for the log). */
  takenFromGone: string | undefined;

  /** Extends the lease if we still hold it; false once it expired or was taken. */
  async renew(): Promise<boolean> {
    return this.attempt(
      `UPDATE leases SET expires_at = clock_timestamp() + :ttl * interval '1 millisecond'
       WHERE name = :name AND owner_id = :owner AND expires_at > clock_timestamp()
       RETURNING owner_id`,
    );
  }

  /**
   * Fencing, inside the transaction that writes the guarded data: true when
   * the lease is still ours by the database clock. The row stays locked
   * FOR SHARE until `trx` ends, so nobody can take the lease before it commits.
   */
  async heldIn(trx: Knex.Transaction): Promise<boolean> {
    const { rows } = await trx.raw<{ rows: unknown[] }>(
      `SELECT 1 FROM leases WHERE name = :name AND owner_id = :owner AND expires_at > clock_timestamp() FOR SHARE`,
      { name: this.name, owner: this.ownerId },
    );
    return rows.length === 1;
  }

  /** Gives the lease up at once so another process can take over without waiting for expiry. */
  async release(): Promise<void> {
    this.heldUntil = 0;
    await this.knex.raw(`UPDATE leases SET expires_at = clock_timestamp() WHERE name = :name AND owner_id = :owner`, {
      name: this.name,
      owner: this.ownerId,
    });
  }

  /** Forgets the lease locally (after an error we cannot tell whether it still holds). */
  drop(): void {
    this.heldUntil = 0;
  }

  private async attempt(sql: string, extra: Record<string, string> = {}): Promise<boolean> {
    const asked = performance.now();
    try {
      const { rows } = await this.knex.raw<{ rows: unknown[] }>(sql, {
        name: this.name,
        owner: this.ownerId,
        ttl: this.ttlMs,
        ...extra,
      });
      const ok = rows.length === 1;
      this.heldUntil = ok ? asked + this.ttlMs : 0;
      if (ok) this.renewedAt = asked;
      return ok;
    } catch (error) {
      this.heldUntil = 0;
      throw error;
    }
  }
}

/**
 * Renews `lease` every third of its time to live until `term` ends, on a timer (docs/projections.md, "The event
 * loop"); ends `term` when a renewal fails, or has not answered while a third of the lease is left, so the holder
 * stops before the lease can run out however long the database hangs.
 */
export async function keepLease(lease: Lease, term: AbortController, failed: (error: unknown) => void): Promise<void> {
  while (!term.signal.aborted) {
    await pause(lease.ttlMs / 3, term.signal);
    if (term.signal.aborted) return;
    const renewal = lease.renew().catch((error: unknown) => {
      failed(error);
      return false;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>(
      (resolve) => (timer = setTimeout(() => resolve(false), lease.remainingMs - lease.ttlMs / 3)),
    );
    const renewed = await Promise.race([renewal, late]).finally(() => clearTimeout(timer));
    if (!renewed) term.abort();
  }
}
