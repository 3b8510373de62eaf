/**
 * The dead-letter table's writer (docs/projections.md, "Projection runner"): a projector's poison event is recorded
 * whatever it holds, so that no event can stall its projector by being unstorable as a dead letter too.
 */
import type { Knex } from 'knex';
import type { BusMessage } from '../../application/shared/event-bus.js';
import type { Logger } from './logger.js';

/** Text PostgreSQL stores: NUL (which no text column takes) written as the escape `\u0000`. */
const storableText = (text: string): string => text.replaceAll('\u0000', '\\u0000');

/**
 * Records the event in dead_letters: the payload goes in as JSON text (a json column takes any JSON, \u0000 and lone
 * surrogates included) and the text columns are made storable. Should the row still be refused, a row without the
 * payload (it stays in the event store, at its position) is written instead, under a savepoint.
 */
export async function writeDeadLetter(
  trx: Knex.Transaction,
  letter: { projector: string; message: Pick<BusMessage, 'event' | 'deliveryCount'>; error: unknown; at: Date },
  logger?: Pick<Logger, 'error'>,
): Promise<void> {
  const { projector, message, error } = letter;
  const { event } = message;
  logger?.error('projection gave up on an event; dead-lettered', {
    projector,
    eventId: event.id,
    position: event.position,
    error,
  });
  const row = {
    projector,
    event_id: storableText(event.id),
    position: storableText(event.position),
    event_type: storableText(event.type),
    error: storableText(error instanceof Error ? (error.stack ?? error.message) : String(error)),
    delivery_count: message.deliveryCount,
    at: letter.at,
  };
  try {
    await trx.transaction((savepoint) => savepoint('dead_letters').insert({ ...row, payload: JSON.stringify(event) }));
  } catch (refused) {
    const reason = storableText(refused instanceof Error ? refused.message : String(refused));
    await trx('dead_letters').insert({
      ...row,
      payload: JSON.stringify({ id: row.event_id, type: row.event_type, position: row.position, unstored: reason }),
    });
  }
}
