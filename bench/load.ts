import { randomUUID } from 'node:crypto';
import net from 'node:net';

export interface LoadRequest {
  /** Default POST, with `body` as JSON; a GET sends no body. */
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface LoadOptions {
  /**
   * Keep every answer's body in `bodies` (default true); off, only the bodies of answers other than 2xx (what a failure
   * report shows), the others' status and index: a large answer kept costs the benchmark's process its parse.
   */
  keepBodies?: boolean;
  /**
   * Mean pause of each connection between an answer and its next request (default 0: back to back). Pauses are drawn
   * from an exponential distribution (seeded, so runs repeat) and each connection starts after a random part of one,
   * so the connections act as independent users rather than a crowd that arrives in step.
   */
  thinkMs?: number;
  /**
   * Stop taking new requests once this long has passed since the start (default: send them all): a load that lasts a
   * set time whatever the rate (the fault tests under pressure, docs/testing.md); the requests not sent are left out
   * of the result.
   */
  durationMs?: number;
  /**
   * With durationMs: once every request was sent, send them again (rounds 1, 2, ...) until the time is up, these
   * headers and top-level body fields made new each round by a `-r<round>` suffix (an idempotency key, an order id),
   * so that a request sent again is a new one to the service, and the input can be much shorter than the load.
   * `index` in the result stays the request's position in the input.
   */
  again?: { headers: string[]; bodyFields: string[] };
}

/** `request` of round `round` (LoadOptions.again): new UUIDs in its named headers, the round's suffix on its fields. */
function renewed(request: LoadRequest, round: number, again: NonNullable<LoadOptions['again']>): LoadRequest {
  if (round === 0) return request;
  const headers = { ...request.headers };
  for (const name of again.headers) if (headers[name] !== undefined) headers[name] = randomUUID();
  if (!request.body || typeof request.body !== 'object') return { ...request, headers };
  const body = { ...(request.body as Record<string, unknown>) };
  for (const field of again.bodyFields) if (body[field] !== undefined) body[field] = `${String(body[field])}-r${round}`;
  return { ...request, headers, body };
}

export interface LoadResult {
  statuses: Map<number, number>;
  /** Answers in completion order; `index` is the request's position in the input. */
  bodies: { index: number; status: number; body: unknown }[];
  latenciesMs: number[];
  /** Latency of each request, at its position in the input. */
  latencyByIndex: number[];
  elapsedMs: number;
}

/**
 * The think time that has `connections` send about `rate` requests/s together: a cycle is a pause and an answer, the
 * answer taken as a tenth of it (at the rates the benchmarks pace, answers are much shorter than the pauses).
 */
export function paced(connections: number, rate: number): LoadOptions {
  return { thinkMs: ((connections * 1000) / rate) * 0.9 };
}

/** Mulberry32: a small seeded generator of uniform numbers in [0, 1). */
export function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One keep-alive HTTP/1.1 connection on a bare socket: a request is written
 * in one piece and its answer read up to its Content-Length (what this
 * service always sends), nothing parsed but the status line and, when asked,
 * the body. A generator on the same 2 cores as the server must cost it as
 * little as it can: node's http client took as much CPU per request as the
 * server's own work.
 */
export class Connection {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting:
    { resolve: (answer: { status: number; body: Buffer }) => void; reject: (error: Error) => void } | undefined;

  constructor(private readonly port: number) {}

  send(r: LoadRequest): Promise<{ status: number; body: Buffer }> {
    const payload = r.method === 'GET' ? '' : JSON.stringify(r.body);
    const headers = Object.entries(r.headers).map(([name, value]) => `${name}: ${value}\r\n`);
    if (payload) headers.push(`content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.open().write(
        `${r.method ?? 'POST'} ${r.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers.join('')}\r\n${payload}`,
      );
    });
  }

  /** The socket, connected again when the server closed an idle one (its keep-alive timeout). */
  private open(): net.Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = net.connect({ host: '127.0.0.1', port: this.port });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.settle();
    });
    const fail = (error: Error) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => {
      this.buffered = Buffer.alloc(0);
      fail(new Error('connection closed by the server'));
    });
    this.socket = socket;
    return socket;
  }

  close(): void {
    this.socket?.destroy();
  }

  private settle(): void {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0 || !this.waiting) return;
    const head = this.buffered.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    const status = Number(head.slice(9, 12));
    if (!length && status !== 204 && status !== 304)
      return this.waiting.reject(new Error(`answer without Content-Length: ${head}`));
    const end = headEnd + 4 + (length ? Number(length[1]) : 0);
    if (this.buffered.length < end) return;
    const body = this.buffered.subarray(headEnd + 4, end);
    this.buffered = this.buffered.subarray(end);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve({ status, body });
  }
}

/**
 * Sends `requests` over `concurrency` keep-alive connections, each
 * connection taking the next request once its previous one answered (and
 * its think time passed).
 */
export async function runLoad(
  port: number,
  requests: LoadRequest[],
  concurrency: number,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const result: LoadResult = {
    statuses: new Map(),
    bodies: [],
    latenciesMs: [],
    latencyByIndex: new Array<number>(requests.length),
    elapsedMs: 0,
  };
  const keepBodies = options.keepBodies !== false;
  let next = 0;
  const random = seeded(42);
  // Exponential pauses with mean thinkMs, at most ten times it.
  const think = () => Math.min(-Math.log(1 - random()) * options.thinkMs!, 10 * options.thinkMs!);
  const connections: Connection[] = [];
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  const { again } = options;
  if (again && options.durationMs === undefined) throw new Error('a load sent again needs durationMs');
  const worker = async () => {
    const connection = new Connection(port);
    connections.push(connection);
    if (options.thinkMs) await sleep(random() * options.thinkMs);
    while ((again || next < requests.length) && performance.now() < deadline) {
      const n = next++;
      const index = n % requests.length;
      const request = again ? renewed(requests[index]!, Math.floor(n / requests.length), again) : requests[index]!;
      const t0 = performance.now();
      const { status, body } = await connection.send(request);
      const ms = performance.now() - t0;
      result.latenciesMs.push(ms);
      result.latencyByIndex[index] = ms;
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      result.bodies.push({ index, status, body: keepBodies || status >= 300 ? parseBody(body) : undefined });
      if (options.thinkMs) await sleep(think());
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    for (const c of connections) c.close();
  }
  result.elapsedMs = performance.now() - started;
  return result;
}

/** JSON when it is JSON, else the text. */
function parseBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The middle value (the mean of the two middle ones for an even count): what a benchmark of several rounds reports. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
