import { expect } from 'chai';
import { fixedClock } from '../../../../application/shared/clock.js';
import { loadConfig } from '../../../../container.js';
import { buildPaymentsCommands } from '../../../../infrastructure/payments/index.js';
import { ProvidedPorts } from '../../../../infrastructure/shared/context.js';
import { InMemoryEventStore } from '../../../../infrastructure/shared/eventstore/in-memory-event-store.js';
import { fastAppSecrets } from '../../../support/fast-app.js';

/**
 * PAYMENTS_SANDBOX_CALLBACK_BASE_URL is checked by the egress policy when the hub is built (docs/payments-sandbox.md,
 * "Callbacks"): a base the outbound client would refuse stops the start, naming the setting.
 */
describe('the sandbox callback target at start', () => {
  const build = (env: Record<string, string>) => () => {
    const clock = fixedClock('2026-03-01T10:00:00.000Z');
    buildPaymentsCommands({
      config: loadConfig({ NODE_ENV: 'test', ...env }),
      secrets: fastAppSecrets,
      store: new InMemoryEventStore({ clock }),
      clock,
      ports: new ProvidedPorts(),
    });
  };

  it('refuses a private, link-local or (without the development setting) loopback base, naming the setting', () => {
    for (const base of ['http://10.0.0.1:3000', 'http://169.254.169.254', 'http://metadata.google.internal'])
      expect(build({ PAYMENTS_SANDBOX_CALLBACK_BASE_URL: base }), base).to.throw(/PAYMENTS_SANDBOX_CALLBACK_BASE_URL/);
    expect(
      build({ PAYMENTS_SANDBOX_CALLBACK_BASE_URL: 'http://127.0.0.1:3000', EGRESS_ALLOW_LOOPBACK: 'false' }),
    ).to.throw(/loopback/);
  });

  it('takes a public base, a loopback one under the development setting, or none (in process)', () => {
    expect(build({ PAYMENTS_SANDBOX_CALLBACK_BASE_URL: 'https://hub.example' })).not.to.throw();
    expect(build({ PAYMENTS_SANDBOX_CALLBACK_BASE_URL: 'http://127.0.0.1:3000' })).not.to.throw();
    expect(build({})).not.to.throw();
  });
});
