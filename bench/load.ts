import http from 'node:http';

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface LoadResult {
  statuses: Map<number, number>;
  /** Answers in completion order; `index` is the request's position in the input. */
  bodies: { index: number; status: number; body: unknown }[];
  latenciesMs: number[];
  elapsedMs: number;
}

/**
 * Sends `requests` as POSTs over `concurrency` keep-alive connections, each
 * connection taking the next request as soon as its previous one answered.
 */
export async function runLoad(port: number, requests: LoadRequest[], concurrency: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const result: LoadResult = { statuses: new Map(), bodies: [], latenciesMs: [], elapsedMs: 0 };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const r = requests[index]!;
      const t0 = performance.now();
      const { status, body } = await post(agent, port, r);
      result.latenciesMs.push(performance.now() - t0);
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      result.bodies.push({ index, status, body });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.elapsedMs = performance.now() - started;
  agent.destroy();
  return result;
}

function post(agent: http.Agent, port: number, r: LoadRequest): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(r.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: r.path,
        method: 'POST',
        agent,
        headers: { ...r.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
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
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
