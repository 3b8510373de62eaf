import net from 'node:net';

/**
 * A port nothing listens on now, from the kernel (a random pick in the
 * ephemeral range can be a client socket's local port under a busy test run).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
