import type { Knex } from 'knex';
import type { EventBus } from '../../../application/shared/event-bus.js';
import type { EventStore } from '../../../application/shared/event-store.js';
import type { Logger } from '../logger.js';
import {
  relayBlocked,
  relayEventsPublished,
  relayLastEventTimestamp,
  relayPosition,
  setPositionInfo,
} from '../metrics.js';
import { defaultLeaseOwner, Lease } from './lease.js';
import { pause } from '../pause.js';

export interface RelayDependencies {
  store: EventStore;
  bus: EventBus;
  /** Holds the lease row. */
  knex: Knex;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface RelayOptions {
  /** Names the lease and the metrics series (default 'relay'). */
  name?: string;
  /** This process's id in the lease row (default host-pid-random). */
  ownerId?: string;
  /** Events read from the store and published per round (default 500). */
  batchSize?: number;
  /** Pause when the log has nothing new (default 100 ms). */
  pollIntervalMs?: number;
  /** Lease time to live; renewed every third of it (default 10 s). */
  leaseTtlMs?: number;
  /** Pause after an error, and between tries while another relay holds the lease (default 1 s). */
  retryDelayMs?: number;
  /** While the bus is ahead of the log: how often the relay looks again (default 30 s). */
  blockedRecheckMs?: number;
}

/**
 * Tails the event store's global log and publishes every event to the bus,
 * in order, once. It keeps no checkpoint of its own: it resumes after the
 * last event the bus holds (`lastPublishedPosition`), so a crash between
 * publishing and recording progress cannot publish an event twice. Only the
 * holder of the lease publishes; a relay that cannot renew it stops
 * publishing, and another takes over once it expires.
 */
/** What the operator does when the bus is ahead of the log (see `Relay.blocked`). */
const recovery =
  'stop the relay, delete the JetStream stream (nats stream rm <NATS_STREAM>), start it: it republishes the log (docs/projections.md, "Recovery")';

export class Relay {
  private readonly lease: Lease;
  private readonly name: string;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly retryDelayMs: number;
  private readonly blockedRecheckMs: number;
  private abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: RelayDependencies,
    options: RelayOptions = {},
  ) {
    this.name = options.name ?? 'relay';
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.blockedRecheckMs = options.blockedRecheckMs ?? 30_000;
    const ownerId = options.ownerId ?? defaultLeaseOwner();
    this.lease = new Lease(deps.knex, this.name, ownerId, options.leaseTtlMs ?? 10_000);
  }

  /** True while this relay holds the lease. */
  get active(): boolean {
    return this.lease.held;
  }

  /**
   * Why this relay refuses to publish, if it does: the bus holds an event the event log does not (a database restored
   * from an older backup), so resuming after it would skip what the log appends next (docs/projections.md, "Recovery").
   */
  blocked: string | undefined;

  start(): void {
    if (this.running) return;
    this.abort = new AbortController();
    this.running = this.run(this.abort.signal);
  }

  /** Stops after the batch in flight and hands the lease over at once. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.abort.abort();
    await this.running;
    this.running = undefined;
    // Released even when not known held: after an error the lease is dropped locally but its row may still name this
    // relay, and a successor would wait for it to expire. Release touches only a row this owner holds.
    await this.lease
      .release()
      .catch((error: unknown) => this.deps.logger?.warn('relay lease release failed', { relay: this.name, error }));
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (!(await this.lease.acquire())) {
          await pause(this.retryDelayMs, signal);
          continue;
        }
        this.deps.logger?.info('relay holds the lease', {
          relay: this.name,
          owner: this.lease.ownerId,
          takenFromGoneProcess: this.lease.takenFromGone,
        });
        await this.relayWhileLeader(signal);
        if (!signal.aborted && !this.blocked)
          this.deps.logger?.warn('relay lost the lease; stopped publishing', {
            relay: this.name,
            owner: this.lease.ownerId,
          });
      } catch (error) {
        this.lease.drop();
        this.deps.logger?.error('relay failed; retrying', { relay: this.name, error });
        await pause(this.retryDelayMs, signal);
      }
    }
  }

  /**
   * Whether the event log holds the bus's last event (where the bus can tell). When it does not, the relay is
   * `blocked`: it says so loudly (an error log, `relay_blocked` at /metrics, /ready) and publishes nothing until the
   * stream is deleted; the check runs again at each take of the lease.
   */
  private async logHasLastPublished(): Promise<boolean> {
    const last = this.deps.bus.lastPublished ? await this.deps.bus.lastPublished() : null;
    const found =
      last === null ||
      (await this.deps.store.readStream(last.streamName, { fromRevision: last.revision })).some(
        (e) => e.id === last.id,
      );
    this.blocked = found
      ? undefined
      : `the bus holds event ${last!.id} (position ${last!.position}, stream ${last!.streamName}) that the event log does not: the database is older than the stream`;
    relayBlocked.set({ relay: this.name }, found ? 0 : 1);
    if (!found)
      this.deps.logger?.error('relay refuses to publish: the event stream is ahead of the event log', {
        relay: this.name,
        reason: this.blocked,
        recovery,
      });
    return found;
  }

  private async relayWhileLeader(signal: AbortSignal): Promise<void> {
    let position = await this.deps.bus.lastPublishedPosition();
    if (!(await this.logHasLastPublished())) {
      await this.lease.release().catch(() => this.lease.drop());
      await pause(this.blockedRecheckMs, signal);
      return;
    }
    while (!signal.aborted) {
      if (this.lease.renewalDue && !(await this.lease.renew())) return;
      const events = await this.deps.store.readAll(position, this.batchSize);
      if (events.length === 0) {
        await pause(this.pollIntervalMs, signal);
        continue;
      }
      if (!this.lease.held) return;
      await this.deps.bus.publish(events);
      const last = events[events.length - 1]!;
      position = last.position;
      relayEventsPublished.inc({ relay: this.name }, events.length);
      setPositionInfo(relayPosition, { relay: this.name }, position);
      relayLastEventTimestamp.set({ relay: this.name }, Date.parse(last.recordedAt) / 1000);
    }
  }
}
