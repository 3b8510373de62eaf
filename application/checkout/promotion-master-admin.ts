/**
 * Operators' promotion masters (stream promotionMaster-<id>, ids from the `promotionMaster` sequence), through the
 * command handler (docs/conventions.md, "Commands"). Reads come from the aggregate, not the read model.
 */
import {
  checkoutDecoders,
  checkoutEventDecoder,
  promotionMasterDecider,
  streams,
  type PromotionMasterDefinition,
  type PromotionMasterState,
  type PromotionMasterStatus,
} from '../../domain/checkout/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { handleCommand } from '../shared/command-handler.js';
import type { EventStore } from '../shared/event-store.js';
import type { NumericIdGenerator } from '../shared/ids.js';
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
  constructor(private readonly deps: { store: EventStore; ids: NumericIdGenerator; clock: Clock }) {}

  /** Creates an ACTIVE promotion master. A resend under its idempotency key answers the first creation. */
  async create(context: CommandContext, definition: PromotionMasterDefinition): Promise<PromotionMasterView> {
    // A resend under a used key spends an id of the sequence and answers the first one's: gaps are harmless.
    const [promotionMasterId] = await this.deps.ids.next('promotionMaster');
    const { state } = await handleCommand({ ...this.deps, decoder: checkoutEventDecoder }, context, {
      decider: promotionMasterDecider,
      decoder: checkoutDecoders.promotionMaster,
      streamName: streams.promotionMaster(promotionMasterId!),
      command: (now) => ({
        type: 'CreatePromotionMaster' as const,
        promotionMasterId: promotionMasterId!,
        definition,
        now,
      }),
    });
    return view(state);
  }

  /** Pauses, resumes or ends it (ENDED is final). */
  async changeStatus(
    context: CommandContext,
    promotionMasterId: number,
    status: PromotionMasterStatus,
  ): Promise<PromotionMasterView> {
    await this.get(promotionMasterId);
    const { state } = await handleCommand({ ...this.deps, decoder: checkoutEventDecoder }, context, {
      decider: promotionMasterDecider,
      decoder: checkoutDecoders.promotionMaster,
      streamName: streams.promotionMaster(promotionMasterId),
      command: (now) => ({ type: 'ChangePromotionMasterStatus' as const, status, now }),
    });
    return view(state);
  }

  /** The promotion master as its stream says (strongly consistent, unlike the read model). */
  async get(promotionMasterId: number): Promise<PromotionMasterView> {
    return view(await existingMaster(this.deps.store, promotionMasterId));
  }
}
