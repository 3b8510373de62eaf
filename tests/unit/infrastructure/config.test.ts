import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig, loadSecrets } from '../../../container.js';
import { ConfigError } from '../../../infrastructure/shared/config.js';

describe('configuration', () => {
  it('given no variables, when loaded, then every default applies', () => {
    const config = loadConfig({});
    expect(config.PORT).to.equal(3000);
    expect(config.ROLES).to.deep.equal(['api', 'relay', 'projector', 'ipn']);
    expect(config.SHOP_IDEMPOTENCY_MODE).to.equal('replay');
    expect(config.SHOP_RESERVATION_AUTO_EXPIRY).to.equal(false);
    expect(config.SHOP_DAY_UTC_OFFSET_MINUTES).to.equal(420);
    expect(config.DATABASE_URL).to.equal(undefined);
  });

  it('given wrong values, when loaded, then it refuses with a message naming each variable', () => {
    const load = () =>
      loadConfig({ PORT: 'eighty', SHOP_IDEMPOTENCY_MODE: 'sometimes', VOUCHER_CODE_KEY: 'abc', ROLES: 'api,web' });
    expect(load).to.throw(ConfigError);
    try {
      load();
    } catch (e) {
      const message = (e as Error).message;
      for (const name of ['PORT', 'SHOP_IDEMPOTENCY_MODE', 'VOUCHER_CODE_KEY', 'ROLES'])
        expect(message).to.include(name);
    }
  });

  it('given operator tokens, when loaded, then they are parsed into names and tokens; short tokens are refused', () => {
    const env = {
      OPERATOR_TOKENS: 'alice=0123456789abcdefXYZ, bob=fedcba9876543210',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'config-')),
    };
    expect(loadSecrets(loadConfig(env), env).OPERATOR_TOKENS).to.deep.equal([
      { name: 'alice', token: '0123456789abcdefXYZ' },
      { name: 'bob', token: 'fedcba9876543210' },
    ]);
    expect(() => loadConfig({ OPERATOR_TOKENS: 'alice=short' })).to.throw(ConfigError, /OPERATOR_TOKENS/);
  });

  it('given secrets, when the configuration is loaded, then their formats are checked but their values are left out', () => {
    const config = loadConfig({ VOUCHER_CODE_KEY: 'ab'.repeat(32), OPERATOR_TOKENS: 'ops=operator-token-0123456789' });
    expect(config).not.to.have.property('VOUCHER_CODE_KEY');
    expect(config).not.to.have.property('OPERATOR_TOKENS');
  });

  it('given boolean switches, when loaded, then true/false/1/0 are understood and anything else refused', () => {
    expect(loadConfig({ SHOP_RESERVATION_AUTO_EXPIRY: 'true' }).SHOP_RESERVATION_AUTO_EXPIRY).to.equal(true);
    expect(loadConfig({ SHOP_RESERVATION_AUTO_EXPIRY: '0' }).SHOP_RESERVATION_AUTO_EXPIRY).to.equal(false);
    expect(() => loadConfig({ SHOP_RESERVATION_AUTO_EXPIRY: 'maybe' })).to.throw(
      ConfigError,
      /SHOP_RESERVATION_AUTO_EXPIRY/,
    );
  });

  it('given API_WORKERS, when loaded, then 1 is the default, a count is taken, and 0, a fraction or a word is refused naming it', () => {
    expect(loadConfig({}).API_WORKERS).to.equal(1);
    expect(loadConfig({ API_WORKERS: '4' }).API_WORKERS).to.equal(4);
    for (const wrong of ['0', '1.5', 'many'])
      expect(() => loadConfig({ API_WORKERS: wrong })).to.throw(ConfigError, 'API_WORKERS');
  });
});

describe('configuration in production', () => {
  it('refuses to run on the embedded database or to seed demo data, naming both', () => {
    const refusal = () => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' });
    expect(refusal).to.throw(ConfigError, /DATABASE_URL: must be set in production \(no embedded database\)/);
    expect(refusal).to.throw(ConfigError, /SEED_DEMO: demo data is never seeded in production/);
  });

  it('runs on an external database without the seed; development keeps its embedded default', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/commerce' }).SEED_DEMO).to.equal(
      undefined,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', SEED_DEMO: 'false' }).SEED_DEMO,
    ).to.equal(false);
    expect(loadConfig({}).DATABASE_URL).to.equal(undefined);
  });

  it('refuses EGRESS_ALLOW_LOOPBACK (a development and test setting, docs/outbound.md)', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' };
    expect(() => loadConfig({ ...production, EGRESS_ALLOW_LOOPBACK: 'true' })).to.throw(
      ConfigError,
      /EGRESS_ALLOW_LOOPBACK: production never sends to loopback addresses/,
    );
    expect(loadConfig({ ...production, EGRESS_ALLOW_LOOPBACK: 'false' }).EGRESS_ALLOW_LOOPBACK).to.equal(false);
    expect(loadConfig({ EGRESS_ALLOW_LOOPBACK: 'true' }).EGRESS_ALLOW_LOOPBACK).to.equal(true);
  });
});

describe('who may read the operations endpoints', () => {
  it('defaults to operators in production and to anyone elsewhere; the setting wins', async () => {
    const { operationsNeedOperator } = await import('../../../infrastructure/shared/config.js');
    expect(operationsNeedOperator({ NODE_ENV: 'production' })).to.equal(true);
    expect(operationsNeedOperator({ NODE_ENV: 'development' })).to.equal(false);
    expect(operationsNeedOperator({ NODE_ENV: 'production', OPERATIONS_ENDPOINTS: 'public' })).to.equal(false);
    expect(operationsNeedOperator({ NODE_ENV: 'test', OPERATIONS_ENDPOINTS: 'operator' })).to.equal(true);
    expect(() => loadConfig({ OPERATIONS_ENDPOINTS: 'everyone' })).to.throw(ConfigError, /OPERATIONS_ENDPOINTS/);
  });
});

describe('sandboxes in production (docs/operations.md, "Sandboxes in production")', () => {
  const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/commerce' };
  const refused = (env: Record<string, string>, pattern: RegExp) =>
    expect(() => loadConfig({ ...production, ...env })).to.throw(ConfigError, pattern);

  for (const [setting, value, sandbox] of [
    ['IDENTITY_SANDBOX', 'true', 'identity'],
    ['PAYMENTS_SANDBOX', 'true', 'payments'],
    ['PAYMENTS_SANDBOX_BASE_URL', 'https://pay.example', 'payments'],
    ['PAYMENTS_SANDBOX_CALLBACK_BASE_URL', 'https://pay.example', 'payments'],
  ] as const) {
    it(`given ${setting}=${value} without SANDBOXES_ALLOWED, when loaded, then it is refused naming both`, () => {
      refused(
        { [setting]: value },
        new RegExp(
          `${setting}: configures .* refused in production; a staging deployment names it in SANDBOXES_ALLOWED=${sandbox}`,
        ),
      );
      // Naming the other sandbox does not let this one in.
      refused(
        { [setting]: value, SANDBOXES_ALLOWED: sandbox === 'identity' ? 'payments' : 'identity' },
        new RegExp(setting),
      );
    });
  }

  it('given SANDBOXES_ALLOWED naming them (staging), when loaded, then both are accepted and the pages need a public https origin', () => {
    const staging = { ...production, SANDBOXES_ALLOWED: 'payments, identity', IDENTITY_SANDBOX: 'true' };
    expect(() => loadConfig(staging)).to.throw(ConfigError, /PAYMENTS_SANDBOX_BASE_URL: must be set in production/);
    for (const local of ['http://pay.example', 'https://localhost:3000', 'https://127.0.0.1', 'https://[::1]:8443'])
      expect(() => loadConfig({ ...staging, PAYMENTS_SANDBOX_BASE_URL: local })).to.throw(
        ConfigError,
        /PAYMENTS_SANDBOX_BASE_URL: must be a public https URL in production/,
      );
    const config = loadConfig({ ...staging, PAYMENTS_SANDBOX_BASE_URL: 'https://pay.staging.example' });
    expect(config.SANDBOXES_ALLOWED).to.deep.equal(['payments', 'identity']);
    // Switched off by its own setting, a named sandbox needs nothing more.
    expect(() =>
      loadConfig({ ...production, SANDBOXES_ALLOWED: 'payments', PAYMENTS_SANDBOX: 'false' }),
    ).not.to.throw();
  });

  it('given an unknown sandbox name, when loaded, then SANDBOXES_ALLOWED is refused', () => {
    expect(() => loadConfig({ SANDBOXES_ALLOWED: 'payments,shop' })).to.throw(ConfigError, /SANDBOXES_ALLOWED/);
  });

  it('given no sandbox setting in production, when loaded, then it starts (sandboxes off), and development keeps them', () => {
    expect(loadConfig(production).SANDBOXES_ALLOWED).to.deep.equal([]);
    expect(() => loadConfig({ ...production, IDENTITY_SANDBOX: 'false', PAYMENTS_SANDBOX: 'false' })).not.to.throw();
    expect(() =>
      loadConfig({ IDENTITY_SANDBOX: 'true', PAYMENTS_SANDBOX_BASE_URL: 'http://localhost:3000' }),
    ).not.to.throw();
  });

  it('given FILES_PUBLIC_BASE_URL in production, when loaded, then it must be public https', () => {
    expect(() => loadConfig({ ...production, FILES_PUBLIC_BASE_URL: 'http://localhost:3000/files' })).to.throw(
      ConfigError,
      /FILES_PUBLIC_BASE_URL: must be a public https URL/,
    );
    expect(() => loadConfig({ ...production, FILES_PUBLIC_BASE_URL: 'https://cdn.example/files' })).not.to.throw();
  });
});
