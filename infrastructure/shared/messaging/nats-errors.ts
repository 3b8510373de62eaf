/** Telling JetStream API errors apart, for the bus and its consumers. */
import { JetStreamApiError, JetStreamError } from '@nats-io/jetstream';

export function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * The client ended a fetch because two of its idle heartbeats (half the fetch's expiry apart) did not arrive in time:
 * on a busy machine, often only because this process or the server was not scheduled meanwhile (nats-consumer.ts).
 */
export function isHeartbeatsMissed(error: unknown): boolean {
  return error instanceof JetStreamError && error.message === 'heartbeats missed';
}
