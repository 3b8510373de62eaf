/**
 * A local HTTP "sink" for the egress tests (docs/outbound.md): a real node:http server on 127.0.0.1 that records
 * every request it receives (method, path, headers, body) and answers as told, so a test can say that the service
 * sent it nothing.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SinkRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Sink {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  received: SinkRequest[];
  close(): Promise<void>;
}

export async function startSink(
  answer: (req: SinkRequest) => { status: number; headers?: Record<string, string>; body?: string } = () => ({
    status: 200,
    body: '{"code":"OK"}',
  }),
): Promise<Sink> {
  const received: SinkRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const one = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      received.push(one);
      const a = answer(one);
      res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    received,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
