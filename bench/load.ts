import http from 'node:http';

export interface LoadRequest {
  /** Default POST, with `body` as JSON; a GET sends no body. */
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface LoadOptions {
  /** Keep every answer's body in `bodies` (default true); off, `bodies` holds status and index only. */
  keepBodies?: boolean;
  /**
   * Mean pause of each connection between an answer and its next request (default 0: back to back). Pauses are drawn
   * from an exponential distribution (seeded, so runs repeat) and each connection starts after a random part of one,
   * so the connections act as independent users rather than a crowd that arrives in step.
   */
  thinkMs?: number;
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

/** Mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `requests` over `concurrency` keep-alive connections, each
 * connection taking the next request once its previous one answered (and
 * its think time passed).
 */
export async function runLoad(port: number, requests: LoadRequest[], concurrency: number, options: LoadOptions = {}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const result: LoadResult = { statuses: new Map(), bodies: [], latenciesMs: [], latencyByIndex: new Array<number>(requests.length), elapsedMs: 0 };
  let next = 0;
  const random = seeded(42);
  // Exponential pauses with mean thinkMs, at most ten times it.
  const think = () => Math.min(-Math.log(1 - random()) * options.thinkMs!, 10 * options.thinkMs!);
  const started = performance.now();
  const worker = async () => {
    if (options.thinkMs) await sleep(random() * options.thinkMs);
    while (next < requests.length) {
      const index = next++;
      const r = requests[index]!;
      const t0 = performance.now();
      const { status, body } = await send(agent, port, r, options.keepBodies !== false);
      const ms = performance.now() - t0;
      result.latenciesMs.push(ms);
      result.latencyByIndex[index] = ms;
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      result.bodies.push({ index, status, body });
      if (options.thinkMs) await sleep(think());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.elapsedMs = performance.now() - started;
  agent.destroy();
  return result;
}

/** One request; the body is parsed as JSON (kept as text when it is not JSON) only when `parse`. */
function send(agent: http.Agent, port: number, r: LoadRequest, parse: boolean): Promise<{ status: number; body: unknown }> {
  const payload = r.method === 'GET' ? undefined : JSON.stringify(r.body);
  const headers = payload === undefined ? r.headers : { ...r.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: r.path, method: r.method ?? 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (!parse) return resolve({ status: res.statusCode ?? 0, body: undefined });
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
