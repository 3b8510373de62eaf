/** Benchmarks' JetStream housekeeping: each run publishes to a stream of its own, deleted when it ends. */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export async function deleteStream(servers: string, stream: string): Promise<void> {
  const nc = await connect({ servers });
  try {
    await (await jetstreamManager(nc)).streams.delete(stream);
  } finally {
    await nc.close();
  }
}
