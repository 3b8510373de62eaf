import pg from 'pg';
import { BoundedCache } from '../../application/shared/bounded-cache.js';
import { changeChannel } from '../../projections/shared/projector.js';
import type { Logger } from './logger.js';
import { pause } from './pause.js';

/**
 * Caches in front of read models, kept right by the changes projectors
 * announce (announceChanges in projections/shared/projector.ts: a NOTIFY sent
 * when the projector's transaction commits, so the new rows are readable by
 * the time it arrives; a rebuild announces '*' when it swaps the views).
 */

/** What a cache hears of a projector's changes: keys, or '*' for everything. */
export type ChangeListener = (keys: readonly string[] | '*') => void;

export interface ChangeSource {
  /** True while announcements are being heard; a cache serves nothing while they may be missed. */
  readonly connected: boolean;
  /** `listener` gets the projector's announcements, and '*' whenever the source (re)connects or loses its connection. */
  subscribe(projector: string, listener: ChangeListener): void;
}

/**
 * Listens (LISTEN) on one PostgreSQL connection of its own for the
 * announcements of the projectors subscribed to. A lost connection is
 * reconnected with a pause; as announcements may have been missed meanwhile,
 * every listener hears '*' on both ends of the gap.
 */
export class PostgresChangeFeed implements ChangeSource {
  private readonly listeners = new Map<string, ChangeListener[]>();
  private client: pg.Client | undefined;
  private running = false;
  private stopping = new AbortController();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly deps: { databaseUrl: string; logger?: Logger; retryDelayMs?: number }) {}

  get connected(): boolean {
    return this.client !== undefined;
  }

  subscribe(projector: string, listener: ChangeListener): void {
    const channel = changeChannel(projector);
    const known = this.listeners.get(channel);
    if (known) known.push(listener);
    else {
      this.listeners.set(channel, [listener]);
      // Channels subscribed while connected are listened to at the next connection.
      if (this.client) this.disconnected(this.client, new Error('a new channel to listen to'));
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    this.wake?.();
    await this.client?.end().catch(() => undefined);
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const client = new pg.Client({ connectionString: this.deps.databaseUrl });
      const closed = new Promise<void>((resolve) => (this.wake = resolve));
      client.on('error', (error) => this.disconnected(client, error));
      client.on('end', () => this.disconnected(client, new Error('connection ended')));
      client.on('notification', (message) => this.deliver(message.channel, message.payload ?? '*'));
      try {
        await client.connect();
        for (const channel of this.listeners.keys()) await client.query(`LISTEN "${channel}"`);
        if (this.running) {
          this.client = client;
          this.everything();
          await closed;
        }
      } catch (error) {
        this.disconnected(client, error as Error);
      } finally {
        await client.end().catch(() => undefined);
      }
      if (this.running) await pause(this.deps.retryDelayMs ?? 1_000, this.stopping.signal);
    }
  }

  private disconnected(client: pg.Client, error: Error): void {
    if (this.client === client) {
      this.client = undefined;
      this.everything();
      if (this.running)
        this.deps.logger?.warn('read model change feed disconnected; caches bypassed until it reconnects', {
          error: error.message,
        });
    }
    this.wake?.();
  }

  private everything(): void {
    for (const channel of this.listeners.keys()) this.deliver(channel, '*');
  }

  private deliver(channel: string, payload: string): void {
    const keys = payload === '*' ? '*' : parseKeys(payload);
    for (const listener of this.listeners.get(channel) ?? []) listener(keys);
  }
}

/** An announcement's keys (a JSON array of strings), or '*' for anything else: whatever it meant, everything may have changed. */
function parseKeys(payload: string): string[] | '*' {
  try {
    const keys: unknown = JSON.parse(payload);
    return Array.isArray(keys) && keys.every((k) => typeof k === 'string') ? keys : '*';
  } catch {
    return '*';
  }
}

/**
 * Values read from a read model, by key, dropped when the projector
 * announces a change of their key.
 *
 * A value read while its key changed must not be kept: a reader takes a
 * `mark()` before it reads and hands it to `put`, which keeps the value only
 * if no change of its key (and no '*') was heard since the mark. Nothing is
 * served or kept while the source is not connected.
 */
export class ChangeTrackedCache<V> {
  private readonly entries: BoundedCache<string, V>;
  /** Sequence number of the last change heard of each key since `floor`. */
  private readonly changedAt = new Map<string, number>();
  private sequence = 0;
  /** Marks below it are too old to tell: '*' was heard, or changedAt was cleared. */
  private floor = 0;

  constructor(
    private readonly source: ChangeSource,
    projector: string,
    private readonly maxEntries: number,
  ) {
    this.entries = new BoundedCache(maxEntries);
    source.subscribe(projector, (keys) => (keys === '*' ? this.clear() : keys.forEach((key) => this.changed(key))));
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    return this.source.connected ? this.entries.get(key) : undefined;
  }

  /** Take before reading what will be `put`. */
  mark(): number {
    return this.sequence;
  }

  /** Keeps `value` read after `mark`, unless its key changed since (or the source is not connected). */
  put(key: string, value: V, mark: number): void {
    if (!this.source.connected || mark < this.floor || (this.changedAt.get(key) ?? -1) > mark) return;
    this.entries.set(key, value);
  }

  private changed(key: string): void {
    this.sequence++;
    this.entries.delete(key);
    if (this.changedAt.size >= this.maxEntries) {
      this.changedAt.clear();
      this.floor = this.sequence;
    }
    this.changedAt.set(key, this.sequence);
  }

  private clear(): void {
    this.sequence++;
    this.floor = this.sequence;
    this.entries.clear();
    this.changedAt.clear();
  }
}
