/**
 * Operators' pool commands (create, restock, reprice, update, delete) as the purchase executor decides them: on the
 * same in-memory pool states as the purchases (docs/shop-purchase.md, "The executor").
 */
import { DomainError } from '../../domain/shared/errors.js';
import {
  type VoucherPoolEvent,
  voucherPoolDecider,
  type VoucherPool,
  type VoucherPoolState,
} from '../../domain/shop/index.js';
import type { FinalDecision } from '../shared/batched-stream-writer.js';
import { eventMetadata } from '../shared/command-context.js';
import type { HotStreams } from '../shared/hot-streams.js';
import { addPoolEvents, type PoolJob, type PurchaseDecision, type PurchaseDraft } from './purchase-batch.js';

export class PoolCommandRules {
  constructor(private readonly pools: HotStreams<number, VoucherPoolState>) {}

  async prepare(job: PoolJob): Promise<FinalDecision | undefined> {
    await this.pools.ensure(job.poolId, job.absentPools);
    return undefined;
  }

  decide(job: PoolJob, draft: PurchaseDraft): PurchaseDecision {
    const base = this.pools.stateIn(draft.pools, job.poolId, job.absentPools);
    let events: VoucherPoolEvent[];
    try {
      events = voucherPoolDecider.decide(job.command, base.state);
    } catch (error) {
      if (error instanceof DomainError) return { kind: 'refused', error, on: draft.pools, key: job.poolId };
      throw error;
    }
    const after = events.reduce(voucherPoolDecider.evolve, base.state) as VoucherPool;
    addPoolEvents(
      draft,
      job.poolId,
      base,
      events,
      (e) => `${job.context.commandId}/${e.type}`,
      eventMetadata(job.context, job.command.now),
    );
    return { kind: 'write', value: () => after };
  }
}
