/**
 * The healthy partners of bench:ipn (bench/ipn.ts), in a process of their own so that answering does not compete
 * with the dispatcher for its event loop: 10 % 5xx, 1 % hang past the dispatcher's timeout, else SUCCESS. Tells its
 * port, then on request each transaction's first arrival (ms since the parent's origin) and the attempts it got twice.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const origin = Number(process.env.ORIGIN_MS);
const received = new Set<string>();
const firstArrival: Record<string, number> = {};
let duplicates = 0;

const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  req.on('end', () => {
    const attempt = `${String(req.headers['x-ipn-notification-id'])}#${String(req.headers['x-ipn-attempt'])}`;
    const tx = (JSON.parse(raw) as { transactionId: string }).transactionId;
    firstArrival[tx] ??= Date.now() - origin;
    // A retry after an answer the dispatcher did not wait for (a timeout) is at-least-once; the same attempt twice is not.
    if (received.has(attempt)) duplicates++;
    received.add(attempt);
    const roll = Math.random();
    if (roll < 0.01) return; // hangs: the dispatcher's timeout ends it
    if (roll < 0.11) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"SUCCESS","message":"ok"}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', () => {
  process.send!({ firstArrival, duplicates }, () => process.exit(0));
});
