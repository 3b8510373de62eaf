/** Uses counted against a master's limits, given/when/then (domain/checkout/promotion-usage.ts). */
import { expect } from 'chai';
import type { PromotionUsageEvent } from '../../../../domain/checkout/events.js';
import { promotionUsageDecider, type PromotionUsageCommand } from '../../../../domain/checkout/promotion-usage.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(promotionUsageDecider);
const at = '2026-06-01T10:00:00.000Z';
const held = (key: string, userId: string | null = 'u1'): PromotionUsageEvent => ({
  type: 'PromotionUsageHeld',
  data: { promotionMasterId: 7, userId, reservationKey: key, heldAt: at },
});
const freed = (key: string, userId: string | null = 'u1'): PromotionUsageEvent => ({
  type: 'PromotionUsageFreed',
  data: { promotionMasterId: 7, userId, reservationKey: key, freedAt: at },
});
const hold = (key: string, limit: number, userId: string | null = 'u1'): PromotionUsageCommand => ({
  type: 'HoldPromotionUse',
  promotionMasterId: 7,
  userId,
  reservationKey: key,
  limit,
  now: at,
});
const free = (key: string): PromotionUsageCommand => ({
  type: 'FreePromotionUse',
  promotionMasterId: 7,
  userId: 'u1',
  reservationKey: key,
  now: at,
});

describe('promotion usage decider', () => {
  it('holds a use while the limit allows, and refuses the one past it', () => {
    given([])
      .when(hold('k1', 2))
      .then([held('k1')]);
    given([held('k1')])
      .when(hold('k2', 2))
      .then([held('k2')]);
    given([held('k1'), held('k2')])
      .when(hold('k3', 2))
      .thenRejects('USAGE_LIMIT_REACHED', { promotionMasterId: 7 });
    given([held('k1', null)])
      .when(hold('k2', 1, null))
      .thenRejects('QUOTA_EXHAUSTED', { promotionMasterId: 7 });
  });
  it('the same reservation holding again is a no-op (a retried reserve)', () =>
    given([held('k1')])
      .when(hold('k1', 1))
      .then([]));
  it('a freed use can be taken again; freeing twice or one never held changes nothing', () => {
    given([held('k1'), freed('k1')])
      .when(hold('k2', 1))
      .then([held('k2')]);
    given([held('k1'), freed('k1')])
      .when(free('k1'))
      .then([]);
    given([]).when(free('k9')).then([]);
    given([held('k1')])
      .when(free('k1'))
      .then([freed('k1')]);
  });
});

describe('promotion usage: folding a long stream', () => {
  it('evolveMany gives the state evolving one event at a time gives, and leaves its input as it was', () => {
    const events: PromotionUsageEvent[] = [];
    for (let i = 0; i < 500; i++) events.push(held(`r${i}`, null));
    for (let i = 0; i < 500; i += 3) events.push(freed(`r${i}`, null));
    for (let i = 0; i < 50; i++) events.push(held(`again${i}`, null));
    const { evolve, evolveMany, initialState } = promotionUsageDecider;
    const oneByOne = events.reduce(evolve, initialState);
    const start = evolve(initialState, held('before', null));
    const before = [...start.holders];
    expect([...evolveMany!(initialState, events).holders]).to.deep.equal([...oneByOne.holders]);
    expect([...evolveMany!(start, events).holders]).to.deep.equal([...events.reduce(evolve, start).holders]);
    expect([...start.holders]).to.deep.equal(before);
    expect(oneByOne.holders.size).to.equal(500 - 167 + 50);
  });
});
