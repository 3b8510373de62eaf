/**
 * Who issues a command and why, built once per request by the interface that took it (api/shared/command-context.ts)
 * and carried by the command handler into every event's metadata. docs/conventions.md, "Commands".
 */
import { randomUUID } from 'node:crypto';
import { nameBasedUuid } from './event-ids.js';
import type { EventMetadata, RecordedEvent } from './event-store.js';

/** Who acts: the operator of a token, a merchant and its user, a terminal. */
export type Actor = NonNullable<EventMetadata['actor']>;

/** An idempotency key as a command carries it (application/shared/idempotency.ts). */
export interface IdempotencyKey {
  /** Where the key is unique: keys of two callers never meet (e.g. `operator:alice`). */
  scope: string;
  key: string;
  /** sha256 (hex) of the request as its interface canonicalises it: an identical resend has the same hash. */
  requestHash: string;
}

export interface CommandContext {
  /**
   * Names this one command: event ids derive from it, so the same command retried appends nothing twice. Never reuse
   * a context for a second command.
   */
  readonly commandId: string;
  /** Ties together everything done for one business transaction, across requests and process managers. */
  readonly correlationId: string;
  /** The event that caused this command (process managers); absent for a request. */
  readonly causationId?: string;
  readonly requestId?: string;
  readonly actor: Actor;
  /** Set when the caller gave an idempotency key: a resend gets the first answer (idempotency.ts). */
  readonly idempotency?: IdempotencyKey;
}

/** The metadata of every event a command appends. */
export function eventMetadata(context: CommandContext, occurredAt: string): EventMetadata {
  const metadata: EventMetadata = {
    commandId: context.commandId,
    correlationId: context.correlationId,
    actor: context.actor,
    occurredAt,
  };
  if (context.causationId !== undefined) metadata.causationId = context.causationId;
  if (context.requestId !== undefined) metadata.requestId = context.requestId;
  return metadata;
}

/**
 * A context for a command that no request carries (the demo seed, scripts, tests): a fresh command id, correlated
 * with itself unless told otherwise.
 */
export function newCommandContext(
  init: Omit<CommandContext, 'commandId' | 'correlationId'> & { correlationId?: string },
): CommandContext {
  const commandId = randomUUID();
  return { ...init, commandId, correlationId: init.correlationId ?? commandId };
}

/**
 * The context of a command that follows from another one in the same request (`name` tells them apart, e.g. the
 * pool a campaign change is copied to): its id derives from the first command's, so a retried request appends
 * nothing twice. It takes no idempotency key (the first command's answers a resend).
 */
export function followUpContext(parent: CommandContext, name: string): CommandContext {
  const { idempotency: _key, ...rest } = parent;
  return { ...rest, commandId: nameBasedUuid(`${parent.commandId}/${name}`) };
}

/**
 * The context of a command a process manager sends because of `event` (docs/process-managers.md): its id derives from
 * the event and `name`, so a redelivered event appends nothing twice; correlated with the event's business
 * transaction, caused by the event, acted by the process.
 */
export function reactionContext(
  event: Pick<RecordedEvent, 'id' | 'metadata'>,
  process: string,
  name = '',
): CommandContext {
  const correlationId = typeof event.metadata.correlationId === 'string' ? event.metadata.correlationId : event.id;
  return {
    commandId: nameBasedUuid(`${event.id}/${process}/${name}`),
    correlationId,
    causationId: event.id,
    actor: { process },
  };
}
