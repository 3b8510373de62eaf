/**
 * Operators' promotion masters (stream promotionMaster-<id>, ids from the `promotionMaster` sequence), through the
 * write engine (docs/conventions.md, "Commands"). Reads come from the aggregate, not the read model.
 */
import {
  type PromotionMasterDefinition,
  type PromotionMasterState,
  type PromotionMasterStatus,
} from '../../domain/checkout/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
import { checkoutAggregates } from './aggregates.js';
import { existingMaster } from './stream-reads.js';

export type PromotionMasterView = PromotionMasterDefinition & {
  promotionMasterId: number;
  status: PromotionMasterStatus;
  createdAt: string;
  updatedAt: string;
};

function view(state: PromotionMasterState): PromotionMasterView {
  if (state.status === 'NONE') throw new Error('a promotion master command answered without a promotion master');
  return state;
}

export class PromotionMasterAdmin {
  private readonly masters;

  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {
    this.masters = checkoutAggregates(deps).promotionMaster;
  }

  /** Creates an ACTIVE promotion master. A resend under its idempotency key answers the first creation. */
  async create(context: CommandContext, definition: PromotionMasterDefinition): Promise<PromotionMasterView> {
    // A resend under a used key spends an id of the sequence and answers the first one's: gaps are harmless.
    const [promotionMasterId] = await this.deps.ids.next('promotionMaster');
    const { state } = await this.masters.handle(context, promotionMasterId!, (now) => ({
      type: 'CreatePromotionMaster' as const,
      promotionMasterId: promotionMasterId!,
      definition,
      now,
    }));
    return view(state);
  }

  /** Pauses, resumes or ends it (ENDED is final). */
  async changeStatus(
    context: CommandContext,
    promotionMasterId: number,
    status: PromotionMasterStatus,
  ): Promise<PromotionMasterView> {
    await this.get(promotionMasterId);
    const { state } = await this.masters.handle(context, promotionMasterId, (now) => ({
      type: 'ChangePromotionMasterStatus' as const,
      status,
      now,
    }));
    return view(state);
  }

  /** The promotion master as its stream says (strongly consistent, unlike the read model). */
  async get(promotionMasterId: number): Promise<PromotionMasterView> {
    return view(await existingMaster(this.deps.store, promotionMasterId));
  }
}
