/**
 * The open-loop load of bench:checkout, run in a process of its own (like load-process.ts): checkout flows
 * (applicable → reserve → confirm, each step sent once the previous answered) started at a fixed arrival rate
 * whatever the server's speed, each on an idle keep-alive connection (a new one when none is idle). A closed loop
 * would slow its arrivals down with the server and hide queueing in the latencies.
 */
import { randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Connection } from './load.js';

export interface FlowJob {
  port: number;
  /** Requests per second over the whole run: flows start at rate / steps per second. */
  rate: number;
  headers: Record<string, string>;
  flows: { userId: string; promotionId: number; orderId: string }[];
  /** `checkout`: applicable, reserve, confirm; `baseline`: three calls of a no-op endpoint behind the same stack. */
  mode: 'checkout' | 'baseline';
}

export interface FlowResult {
  /** Latency of each step, in ms, by step name. */
  latencies: Record<string, number[]>;
  /** Answers that were not 200, by step and status. */
  failures: Record<string, number>;
  elapsedMs: number;
  /** Largest lag of a flow's start behind its schedule (the generator's own delay). */
  maxStartLagMs: number;
}

const order = (merchantId: string) => ({
  merchant_id: merchantId,
  subtotal: 150_000,
  items: [{ item_id: 'i1', quantity: 2, unit_price: 75_000, categories: ['food'] }],
});

export async function runFlows(job: FlowJob): Promise<FlowResult> {
  const result: FlowResult = { latencies: {}, failures: {}, elapsedMs: 0, maxStartLagMs: 0 };
  const idle: Connection[] = [];
  const all: Connection[] = [];
  const record = (step: string, ms: number, status: number) => {
    (result.latencies[step] ??= []).push(ms);
    if (status !== 200) result.failures[`${step} ${status}`] = (result.failures[`${step} ${status}`] ?? 0) + 1;
  };
  const send = async (connection: Connection, step: string, path: string, body: unknown, extra = {}) => {
    const t0 = performance.now();
    const answer = await connection.send({
      path,
      headers: { ...job.headers, 'x-request-id': randomUUID(), ...extra },
      body,
    });
    record(step, performance.now() - t0, answer.status);
    return answer;
  };
  const flow = async (f: FlowJob['flows'][number]) => {
    const connection = idle.pop() ?? new Connection(job.port);
    if (!all.includes(connection)) all.push(connection);
    const headers = { 'x-app-user-id': f.userId };
    const orders = [order('BENCH')];
    try {
      if (job.mode === 'baseline') {
        for (const step of ['noop1', 'noop2', 'noop3'])
          await send(connection, step, '/loyalty/v1/promotion/bench-noop', { orders }, headers);
        return;
      }
      await send(connection, 'applicable', '/loyalty/v1/promotion/applicable', { orders }, headers);
      const selected = [{ promotion_id: f.promotionId, code_type: 'UNIQUE' }];
      const reserved = await send(
        connection,
        'reserve',
        '/loyalty/v1/promotion/reserve',
        { order_id: f.orderId, selected_promotions: selected, orders },
        { ...headers, 'x-idempotency-key': randomUUID() },
      );
      const key = (JSON.parse(reserved.body.toString('utf8')) as { data?: { reservation_key?: string } }).data
        ?.reservation_key;
      if (key)
        await send(
          connection,
          'confirm',
          '/loyalty/v1/promotion/confirm',
          { reservation_key: key, order_id: f.orderId },
          headers,
        );
    } finally {
      idle.push(connection);
    }
  };
  const interval = 3000 / job.rate; // three requests per flow
  const started = performance.now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < job.flows.length; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    result.maxStartLagMs = Math.max(result.maxStartLagMs, performance.now() - due);
    running.push(flow(job.flows[i]!));
  }
  await Promise.all(running);
  result.elapsedMs = performance.now() - started;
  for (const c of all) c.close();
  return result;
}

/** runFlows in a node process of its own. */
export function flowsInOwnProcess(job: FlowJob): Promise<FlowResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.once('message', (m: FlowResult) => resolve(m));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the flow process exited with ${code}`))));
    child.send(job);
  });
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.once('message', async (job: FlowJob) => {
    const result = await runFlows(job);
    process.send!(result, () => process.exit(0));
  });
}
