/** Telling JetStream API errors apart, for the bus and its consumers. */
import { JetStreamApiError } from '@nats-io/jetstream';

export function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}
