/**
 * The CommandContext of a request (application/shared/command-context.ts), built once per request by the interface
 * that took it, once its authentication named the actor. docs/conventions.md, "Commands"; the headers are described
 * per interface (docs/shop-api.md, "Operator API").
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Actor, CommandContext } from '../../application/shared/command-context.js';
import { nameBasedUuid } from '../../application/shared/event-ids.js';
import { canonicalJson } from '../../application/shared/idempotency.js';
import { saneToken } from './request-context.js';

/** sha256 (hex) of what a request asks: its method, path and JSON body. */
export function requestHash(req: Pick<Request, 'method' | 'baseUrl' | 'path' | 'body'>): string {
  const body: unknown = req.body;
  return createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.path}\n${body === undefined ? '' : canonicalJson(body)}`, 'utf8')
    .digest('hex');
}

/** An idempotency key header value this service accepts: the same form as X-Request-Id (a UUID is best). */
export const isIdempotencyKey = (value: string) => saneToken.test(value);

export interface RequestCommand {
  actor: Actor;
  /** An idempotency key the interface took for this request, and where such keys are unique (e.g. `operator:alice`). */
  idempotency?: { scope: string; key: string };
}

/**
 * The context of the command a request runs. Its command id is named by the idempotency key when there is one;
 * otherwise by X-Request-Id and what the request asks, so a request sent again with its X-Request-Id appends nothing
 * twice while another request that happens to carry the same X-Request-Id (a caller reusing ids) is a command of its
 * own. The correlation id is the caller's X-Correlation-Id or the request id (request-context.ts); a request has no
 * causation id.
 */
export function commandContextOf(req: Request, res: Response, command: RequestCommand): CommandContext {
  const requestId = res.locals.requestId as string;
  const correlationId = (res.locals.correlationId as string | undefined) ?? requestId;
  const hash = requestHash(req);
  const { idempotency } = command;
  return {
    commandId: idempotency
      ? nameBasedUuid(`idempotency/${idempotency.scope}/${idempotency.key}`)
      : nameBasedUuid(`request/${requestId}/${hash}`),
    correlationId,
    requestId,
    actor: command.actor,
    ...(idempotency && { idempotency: { ...idempotency, requestHash: hash } }),
  };
}

/**
 * The context of a command whose writer names its events itself (the shop's flash-sale executor derives their ids
 * from the reservation and the idempotency key): its ids and actor, for the events' metadata, without hashing the
 * request. The command id is named by X-Request-Id alone.
 */
export function actorContextOf(res: Response, actor: Actor): CommandContext {
  const requestId = res.locals.requestId as string;
  return new ActorContext(requestId, (res.locals.correlationId as string | undefined) ?? requestId, actor);
}

/**
 * actorContextOf's context: its command id is named when first read, since only a command that appends needs it
 * and a refused flash-sale reserve never does (hashing it was a tenth of such a refusal's own work). A spread copies
 * the other fields only, so one that spreads it sets its own commandId (the identity routers do).
 */
class ActorContext implements CommandContext {
  #commandId: string | undefined;

  constructor(
    readonly requestId: string,
    readonly correlationId: string,
    readonly actor: Actor,
  ) {}

  get commandId(): string {
    return (this.#commandId ??= nameBasedUuid(`request/${this.requestId}`));
  }
}
