import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Logger } from './logger.js';

/**
 * The api role in several processes (API_WORKERS): the primary forks worker
 * processes of main.ts, each an api process of its own (ROLES=api) sharing
 * the primary's port, so that requests are served on every core and one slow
 * answer holds up only the requests of its own worker. A worker that dies is
 * replaced; one that dies before it ever listened stops the service.
 *
 * GET /metrics of any worker answers for the whole service: the worker asks
 * the primary, which sums its own registry and every worker's
 * (prom-client's AggregatorRegistry.aggregate).
 *
 * A worker serves as soon as it listens (the demo seed's orders go through
 * it), but its /ready answers NOT_READY until the primary has finished
 * starting (the demo seed): the primary tells every worker, and every one
 * forked later, once it has (docs/operations.md, "Health").
 */

/** Messages between the primary and its workers. */
type Message =
  | { type: 'api-workers:service-metrics'; id: number }
  | { type: 'api-workers:service-metrics-answer'; id: number; text?: string; error?: string }
  | { type: 'api-workers:own-metrics'; id: number }
  | { type: 'api-workers:own-metrics-answer'; id: number; metrics: unknown[] }
  | { type: 'api-workers:primary-started' };

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' && m !== null && String((m as { type?: unknown }).type).startsWith('api-workers:');

const askTimeoutMs = 5_000;

export interface ApiWorkers {
  /** The port the workers listen on (PORT, or the one picked for PORT=0). */
  port: number;
  /** The primary has finished starting: every worker, and every one forked from now on, may answer /ready READY. */
  primaryStarted(): void;
  /** SIGTERM to every worker (each finishes its requests in flight), resolved when all have exited. */
  stop(): Promise<void>;
}

/**
 * Forks `count` workers of this process's script with `env` added to the
 * environment; resolves once every one listens.
 */
export async function startApiWorkers(options: {
  count: number;
  env: Record<string, string>;
  registry: Registry;
  logger: Pick<Logger, 'info' | 'error'>;
}): Promise<ApiWorkers> {
  const { count, env, registry, logger } = options;
  let stopping = false;
  let started = false;
  let nextId = 0;
  const tellStarted = (worker: Worker) =>
    worker.isConnected() && worker.send({ type: 'api-workers:primary-started' } satisfies Message);
  const waiting = new Map<number, (metrics: unknown[]) => void>();

  /** A worker's own metrics as JSON; none if it does not answer in time (it may be exiting). */
  const ownMetrics = (worker: Worker) =>
    new Promise<unknown[]>((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve([]);
      }, askTimeoutMs);
      waiting.set(id, (metrics) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(metrics);
      });
      worker.send({ type: 'api-workers:own-metrics', id } satisfies Message);
    });

  async function serviceMetrics(): Promise<string> {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
    const parts = await Promise.all([registry.getMetricsAsJSON(), ...workers.map(ownMetrics)]);
    return AggregatorRegistry.aggregate(
      parts.filter((p) => p.length > 0) as Parameters<typeof AggregatorRegistry.aggregate>[0],
    ).metrics();
  }

  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'api-workers:own-metrics-answer') waiting.get(message.id)?.(message.metrics);
    if (message.type === 'api-workers:service-metrics') {
      serviceMetrics().then(
        (text) =>
          worker.isConnected() &&
          worker.send({ type: 'api-workers:service-metrics-answer', id: message.id, text } satisfies Message),
        (error: unknown) =>
          worker.isConnected() &&
          worker.send({
            type: 'api-workers:service-metrics-answer',
            id: message.id,
            error: String(error),
          } satisfies Message),
      );
    }
  });

  let failedToStart: ((error: Error) => void) | undefined;
  /** A worker; resolves with its port once it listens. One that dies later is replaced, as is a replacement that fails to start (after a pause). */
  const fork = (replacement = false) =>
    new Promise<number>((resolve) => {
      const worker = cluster.fork(env);
      let listening = false;
      worker.once('listening', (address) => {
        listening = true;
        // It listens for the primary's messages before it listens on the port (main.ts), so none is lost.
        if (started) tellStarted(worker);
        resolve(address.port);
      });
      worker.once('exit', (code, signal) => {
        if (stopping) return;
        const how = signal ?? `code ${code}`;
        if (!listening && !replacement)
          return failedToStart?.(new Error(`an api worker exited before it listened (${how})`));
        logger.error(listening ? 'api worker exited; starting another' : 'api worker failed to start; trying again', {
          pid: worker.process.pid,
          how,
        });
        setTimeout(() => stopping || void fork(true), listening ? 1000 : 5000).unref();
      });
    });

  const failed = new Promise<never>((_, reject) => (failedToStart = reject));
  const ports = await Promise.race([Promise.all(Array.from({ length: count }, () => fork())), failed]).catch(
    async (error: unknown) => {
      await stopAll();
      throw error;
    },
  );
  logger.info('api workers listening', { workers: count, port: ports[0] });

  async function stopAll(): Promise<void> {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.process.exitCode !== null || w.process.signalCode !== null) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
  }
  return {
    port: ports[0]!,
    primaryStarted() {
      started = true;
      for (const worker of Object.values(cluster.workers ?? {})) if (worker) tellStarted(worker);
    },
    stop: stopAll,
  };
}

/** In a worker: resolves once the primary has finished starting (ApiWorkers.primaryStarted). */
export function primaryStarted(): Promise<void> {
  return new Promise((resolve) => {
    const heard = (message: unknown) => {
      if (!isMessage(message) || message.type !== 'api-workers:primary-started') return;
      process.off('message', heard);
      resolve();
    };
    process.on('message', heard);
  });
}

/**
 * In a worker: the service's metrics, as the primary sums them, and this
 * worker's own on the primary's asking.
 */
export function workerMetrics(registry: Registry): Pick<Registry, 'contentType' | 'metrics'> {
  let nextId = 0;
  const waiting = new Map<number, (answer: { text?: string; error?: string }) => void>();
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'api-workers:own-metrics')
      void registry
        .getMetricsAsJSON()
        .then((metrics) =>
          process.send?.({ type: 'api-workers:own-metrics-answer', id: message.id, metrics } satisfies Message),
        );
    if (message.type === 'api-workers:service-metrics-answer') waiting.get(message.id)?.(message);
  });
  return {
    contentType: registry.contentType,
    metrics: () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('the primary process did not answer for the metrics'));
        }, askTimeoutMs * 2);
        waiting.set(id, ({ text, error }) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (text === undefined) reject(new Error(error ?? 'no metrics'));
          else resolve(text);
        });
        process.send?.({ type: 'api-workers:service-metrics', id } satisfies Message);
      }),
  };
}
