import { expect } from 'chai';
import { firstOfEach, runs, type ProjectedEvent } from '../../../projections/shared/projector.js';

const event = (type: string, n: number): ProjectedEvent => ({
  id: `e${n}`,
  streamName: `s-${n}`,
  type,
  schemaVersion: 1,
  data: { n },
  metadata: { occurredAt: '2026-01-01T00:00:00.000Z' },
  revision: 0,
  position: String(n).padStart(3, '0'),
  recordedAt: '2026-01-01T00:00:00.000Z',
});

describe('runs of a batch', () => {
  const campaigns = new Set(['CampaignCreated', 'CampaignStatusChanged']);
  const pools = new Set(['VoucherPoolCreated']);

  it('puts consecutive events of one group in one run, and every other event in a run of its own, in order', () => {
    const types = [
      'CampaignCreated',
      'CampaignStatusChanged',
      'CampaignCreated',
      'VoucherPoolCreated',
      'VoucherPoolCreated',
      'VoucherPoolDeleted',
      'VoucherPoolDeleted',
      'VoucherPoolCreated',
      'CampaignStatusChanged',
    ];
    const batch = types.map(event);
    const ids = runs(batch, [campaigns, pools]).map((run) => run.map((e) => e.id));
    expect(ids).to.deep.equal([['e0', 'e1', 'e2'], ['e3', 'e4'], ['e5'], ['e6'], ['e7'], ['e8']]);
  });

  it('makes a run of one event of a group between others', () => {
    expect(
      runs([event('A', 0), event('VoucherPoolCreated', 1), event('B', 2)], [pools]).map((run) => run.length),
    ).to.deep.equal([1, 1, 1]);
  });

  it('keeps the first of each key, in order', () => {
    expect(firstOfEach([3, 1, 3, 2, 1], (n) => n)).to.deep.equal([3, 1, 2]);
  });
});
