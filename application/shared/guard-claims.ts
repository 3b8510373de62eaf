/**
 * Guard streams: an invariant across streams (a code used once, an order id or a reference id used once) is a
 * stream claimed with 'no_stream' in the same append as the command's events (docs/event-store.md, "Guard streams").
 */
import type { DomainEvent } from '../../domain/shared/decider.js';
import type { EventStore, ExpectedVersion, RecordedEvent } from './event-store.js';

export interface GuardClaim {
  streamName: string;
  event: DomainEvent;
  /** The caller's typed domain error for a claim another command holds (e.g. CAMPAIGN_CODE_EXISTS). */
  lost: () => Error;
  /**
   * The stream a recorded claim was made for. When that stream does not exist, the claim's own write never happened
   * (a partial write on a store without multi-stream transactions: the claim is written first) and the next claim
   * takes it over. Absent: a recorded claim always holds.
   */
  claimant?: (claim: RecordedEvent) => string;
  /** Names the claim's event id when it must be recognised across commands (e.g. a key's hash); default: the command. */
  idName?: string;
}

/** Another stream written in the same append: before the command's stream (after the claims) or after it. */
export interface SideWrite {
  streamName: string;
  /** One event, or several in order (another aggregate's decision, appended in the same transaction). */
  event: DomainEvent | readonly DomainEvent[];
  expectedVersion: ExpectedVersion;
  placement: 'before' | 'after';
  /** As GuardClaim.idName. */
  idName?: string;
}

/**
 * How to claim `claim` again after it conflicted: at the revision of a stale claim (its claimant was never written),
 * or not at all when the recorded claim is this command's own (`null`); throws `claim.lost()` when another command
 * holds it. Note the window this leaves on EventStoreDB: a claim whose command is still writing its stream looks
 * stale for that moment.
 */
export async function reclaim(store: EventStore, claim: GuardClaim, ownId: string): Promise<ExpectedVersion | null> {
  const recorded = (await store.readStream(claim.streamName)).at(-1);
  if (!recorded) return 'no_stream';
  if (recorded.id === ownId) return null;
  if (claim.claimant && (await store.readStream(claim.claimant(recorded))).length === 0) return recorded.revision;
  throw claim.lost();
}
