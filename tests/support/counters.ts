/**
 * A counter aggregate for the write path's own tests (tests/integration/shared/command-handler.test.ts on PostgreSQL,
 * tests/unit/application/shared/aggregate.test.ts in memory): a decider that refuses to go above 10, code claims, side
 * notes, and command contexts with and without an idempotency key.
 */
import type { CommandContext } from '../../application/shared/command-context.js';
import { nameBasedUuid } from '../../application/shared/event-ids.js';
import type { Decider, DomainEvent } from '../../domain/shared/decider.js';
import { DomainError } from '../../domain/shared/errors.js';
import { eventDecoder } from '../../domain/shared/event-decoder.js';

export type Added = DomainEvent<'Added', { amount: number; code?: string; at: string }>;
export interface Add {
  add: number;
  /** A code used once across every counter (a guard claim). */
  code?: string;
  now: string;
}
/** A counter that refuses to go above 10. */
export const counter: Decider<Add, number, Added> = {
  initialState: 0,
  decide: (c, total) => {
    if (total + c.add > 10) throw new DomainError('LIMIT', 'over 10');
    return c.add === 0 ? [] : [{ type: 'Added', data: { amount: c.add, ...(c.code && { code: c.code }), at: c.now } }];
  },
  evolve: (total, e) => total + e.data.amount,
};

type CodeClaimed = DomainEvent<'CodeClaimed', { code: string; counter: string }>;
type Noted = DomainEvent<'Noted', unknown>;
/** The test context's decoder: its counters' events, their code claims and side notes. */
export const testEvents = eventDecoder<Added | CodeClaimed | Noted>({
  Added: { version: 1 },
  CodeClaimed: { version: 1 },
  Noted: { version: 1 },
});
export const counterEvents = testEvents.only({ Added: true });

export const codeStream = (code: string) => `counterCode-${code}`;
export const codeUsed = (code: string) => new DomainError('CODE_USED', `code ${code} is used`);

export const context = (commandId: string, extra: Partial<CommandContext> = {}): CommandContext => ({
  commandId,
  correlationId: `corr-${commandId}`,
  actor: { operator: 'alice' },
  ...extra,
});

export const keyed = (key: string, requestHash: string): CommandContext =>
  context(nameBasedUuid(`idempotency/test/${key}`), { idempotency: { scope: 'test', key, requestHash } });
