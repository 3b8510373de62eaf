import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { loadConfig } from '../../../container.js';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { expectHubOk, hub, hubHeaders, initBody, nowSeconds, onboardMerchant, type Onboarded } from './support.js';

/**
 * The hub's stored timers on the whole app (relay, projection runner, timer job; NATS when NATS_URL is set): an
 * expired hold ends TIMEOUT (as configured here), an unpaid payment is FAILED at expiresAt (docs/payments.md).
 */
describe('Payment hub timers (PostgreSQL, relay, timer job)', function () {
  this.timeout(60_000);
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  let m: Onboarded;
  before(async () => {
    app = await startTestApp({
      clock,
      env: {
        // The wallet's own hold timeout (1 h) overrides the default (7 days).
        PAYMENTS_PROVIDER_HOLD_TIMEOUTS: 'SANDBOX_WALLET=3600,SANDBOX_CARD=60',
        PAYMENTS_HOLD_EXPIRY_STATUS: 'TIMEOUT',
        ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}),
      },
    });
    m = await onboardMerchant(app.baseUrl, 'timers');
  });
  after(() => app?.stop());

  const init = async (orderId: string) => {
    const res = await hub(
      app.baseUrl,
      'POST',
      '/transactions',
      hubHeaders(m.keys.T1!.paymentApiKey, nowSeconds(clock)),
      initBody(m.secretKey, orderId),
    );
    return (expectHubOk(res) as { transaction: { id: string } }).transaction.id;
  };
  const transactions = () => app.container.services.payments.transactions;
  const pending = (id: string) =>
    app.container
      .knex('payments_timers')
      .where('timer_id', 'like', `${id}:%`)
      .whereNull('fired_at')
      .orderBy('timer_id')
      .pluck('timer_id');

  it('a held transaction ends TIMEOUT when its hold expires, not before; its abandonment was cancelled', async () => {
    const id = await init('T-HOLD');
    const as = () => newCommandContext({ actor: { process: 'provider:SANDBOX_WALLET' } });
    await transactions().providerAuthorized(as(), id, { bankName: null, accountHolderName: null, cardNo: null });
    await eventually(async () => expect(await pending(id)).to.deep.equal([`${id}:hold-expiry`]));

    clock.advance(3599_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await transactions().load(id)).status).to.equal('HOLDING');

    clock.advance(1000);
    await eventually(async () => expect((await transactions().load(id)).status).to.equal('TIMEOUT'), 10_000);
    const last = (await app.container.store.readStream(`transaction-${id}`)).at(-1)!;
    expect(last.data).to.deep.include({ by: 'HOLD_TIMEOUT', status: 'TIMEOUT' });
    expect(last.metadata.actor).to.deep.equal({ process: 'timer:payments-hold-expiry' });
    await eventually(async () => expect(await pending(id)).to.deep.equal([]));
    // The provider voids the hold (the settlement process manager), recorded once.
    await eventually(async () => {
      const events = await app.container.store.readStream(`transaction-${id}`);
      expect(events.filter((e) => e.type === 'TransactionSettledAtProvider').map((e) => e.data)).to.deep.equal([
        {
          transactionId: id,
          action: 'VOID',
          providerReference: `VOID-SBX-${id}`,
          settledAt: clock.now().toISOString(),
        },
      ]);
    }, 10_000);
  });

  it('a confirmed hold is captured at the provider, and recorded once', async () => {
    const id = await init('T-CAPTURE');
    const as = () => newCommandContext({ actor: { process: 'provider:SANDBOX_WALLET' } });
    await transactions().providerAuthorized(as(), id, { bankName: null, accountHolderName: null, cardNo: null });
    const ts = nowSeconds(clock);
    const confirm = await hub(app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(m.keys.T1!.paymentApiKey, ts), {
      transactionId: id,
      secureHash: hmacSha256Hex(m.secretKey, `${id}|${ts}`),
    });
    expectHubOk(confirm);
    const settled = await eventually(async () => {
      const t = await transactions().load(id);
      expect(t.settlement).to.deep.equal({ action: 'CAPTURE', providerReference: `CAP-SBX-${id}` });
      return t;
    }, 10_000);
    expect(settled.status).to.equal('COMPLETED');
    const events = await app.container.store.readStream(`transaction-${id}`);
    expect(events.at(-1)!.metadata.actor).to.deep.equal({ process: 'payments-provider-settlement' });
  });

  it('refuses a malformed provider hold timeout list at start, naming the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', PAYMENTS_PROVIDER_HOLD_TIMEOUTS: 'SANDBOX_WALLET=soon' })).to.throw(
      /PAYMENTS_PROVIDER_HOLD_TIMEOUTS/,
    );
  });

  it('a payment with no result is FAILED at its expiresAt (4 hours after init)', async () => {
    const id = await init('T-ABANDON');
    await eventually(async () => expect(await pending(id)).to.deep.equal([`${id}:abandon`]));
    clock.advance(4 * 3600_000);
    await eventually(async () => expect((await transactions().load(id)).status).to.equal('FAILED'), 10_000);
    expect((await transactions().load(id)).errorCode).to.equal('ABANDONED');
  });
});
