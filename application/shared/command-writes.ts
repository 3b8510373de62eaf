/**
 * The writes of one attempt of the command handler (command-handler.ts; docs/event-store.md, "The command handler"):
 * the idempotency record, guard claims, side writes and the command's events, in their order, with their
 * deterministic ids.
 */
import type { DomainEvent } from '../../domain/shared/decider.js';
import type { EventDecoder } from '../../domain/shared/event-decoder.js';
import type { CommandContext } from './command-context.js';
import { commandEventId, nameBasedUuid } from './event-ids.js';
import type { EventMetadata, ExpectedVersion, StreamWrite } from './event-store.js';
import type { GuardClaim, SideWrite } from './guard-claims.js';
import { idempotencyKeyUsedVersion, idempotencyStream, type IdempotencyKeyUsed } from './idempotency.js';

/** The expected version that says "the stream is still at `revision`" (-1: absent). */
export function expectedVersionOf(revision: number): ExpectedVersion {
  return revision < 0 ? 'no_stream' : revision;
}

/** The writes of one attempt, in their order (see handleCommand). */
export function planWrites<E extends DomainEvent>(
  versions: Pick<EventDecoder<DomainEvent>, 'currentVersion'>,
  context: CommandContext,
  metadata: EventMetadata,
  streamName: string,
  revision: number,
  events: readonly E[],
  linked: {
    claims: GuardClaim[];
    sideWrites: SideWrite[];
    reclaimed: ReadonlyMap<string, ExpectedVersion | null>;
    record?: { expected: ExpectedVersion; usedAt: string };
  },
): StreamWrite[] {
  const envelope = (id: string, event: DomainEvent, schemaVersion = versions.currentVersion(event.type)) => ({
    id,
    type: event.type,
    schemaVersion,
    data: event.data,
    metadata,
  });
  const writes: StreamWrite[] = [];
  const key = context.idempotency;
  if (key && linked.record) {
    const used: IdempotencyKeyUsed = {
      type: 'IdempotencyKeyUsed',
      data: {
        scope: key.scope,
        key: key.key,
        requestHash: key.requestHash,
        commandId: context.commandId,
        streamName,
        fromRevision: revision + 1,
        count: events.length,
        usedAt: linked.record.usedAt,
      },
    };
    writes.push({
      streamName: idempotencyStream(key),
      events: [envelope(recordId(context, streamName), used, idempotencyKeyUsedVersion)],
      expectedVersion: linked.record.expected,
    });
  }
  linked.claims.forEach((claim, i) => {
    const expected = linked.reclaimed.has(claim.streamName) ? linked.reclaimed.get(claim.streamName)! : 'no_stream';
    if (expected === null) return; // this command's own claim, stored by an earlier attempt
    writes.push({
      streamName: claim.streamName,
      events: [envelope(claimId(context, streamName, claim, i), claim.event)],
      expectedVersion: expected,
    });
  });
  const side = (placement: SideWrite['placement']) =>
    linked.sideWrites.forEach((w, i) => {
      if (w.placement !== placement) return;
      const id = nameBasedUuid(w.idName ?? `${context.commandId}/${streamName}/${w.streamName}/${i}`);
      const events = Array.isArray(w.event) ? (w.event as readonly DomainEvent[]) : [w.event as DomainEvent];
      // The first keeps the single-event id form, so ids of existing side writes never change.
      const ids = events.map((_, j) => (j === 0 ? id : nameBasedUuid(`${id}/${j}`)));
      writes.push({
        streamName: w.streamName,
        events: events.map((e, j) => envelope(ids[j]!, e)),
        expectedVersion: w.expectedVersion,
      });
    });
  side('before');
  if (events.length > 0) {
    writes.push({
      streamName,
      events: events.map((e, i) => envelope(commandEventId(context.commandId, streamName, i), e)),
      expectedVersion: expectedVersionOf(revision),
    });
  }
  side('after');
  return writes;
}

/**
 * The key record's event id. The request's hash is part of it: the command id comes from the key, so without it
 * another request under a used key would write the very record stored, which the store takes for a retry of that
 * write (and then writes the rest), instead of the conflict that tells handleCommand the key is used.
 */
export const recordId = (context: CommandContext, streamName: string) =>
  nameBasedUuid(`${context.commandId}/${streamName}/idempotency/${context.idempotency?.requestHash ?? ''}`);

export const claimId = (context: CommandContext, streamName: string, claim: GuardClaim, index: number) =>
  nameBasedUuid(claim.idName ?? `${context.commandId}/${streamName}/${claim.streamName}/${index}`);
