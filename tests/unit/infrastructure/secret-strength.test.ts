import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig, loadSecrets } from '../../../container.js';
import { ConfigError } from '../../../infrastructure/shared/config.js';
import { newSigningKeyJwk } from '../../../infrastructure/identity/index.js';
import { weakHexKey, weakText } from '../../../infrastructure/shared/secrets.js';

describe('weak secrets are refused in production (infrastructure/shared/secrets.ts)', () => {
  const strongToken = 'Vx7q2LmN9pR4sT8wY3zA6bC1dE5fG0hJ';
  const strongKey = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const signingKeys = JSON.stringify([newSigningKeyJwk()]);
  /** Every secret the service declares, set, for production; `overrides` weakens some. */
  function production(overrides: Record<string, string>) {
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/commerce',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 's-')),
    };
    // Whatever other secrets the contexts declare are set from their development generators' shapes.
    const dev = loadSecrets(loadConfig({ DATA_DIR: env.DATA_DIR }), { DATA_DIR: env.DATA_DIR });
    for (const [name, value] of Object.entries(dev)) if (typeof value === 'string') env[name] = value;
    Object.assign(
      env,
      { OPERATOR_TOKENS: `ops=${strongToken}`, VOUCHER_CODE_KEY: strongKey, IDENTITY_SIGNING_KEYS: signingKeys },
      overrides,
    );
    fs.rmSync(path.join(env.DATA_DIR!, 'dev-secrets.json'));
    return () => loadSecrets(loadConfig(env), env);
  }

  it('runs with strong secrets', () => {
    expect(production({})().OPERATOR_TOKENS).to.deep.equal([{ name: 'ops', token: strongToken }]);
  });

  for (const [what, overrides, reason] of [
    ['an all-zero voucher key', { VOUCHER_CODE_KEY: '0'.repeat(64) }, /VOUCHER_CODE_KEY: is one byte repeated/],
    ['a patterned voucher key', { VOUCHER_CODE_KEY: 'abcd'.repeat(16) }, /VOUCHER_CODE_KEY: has too few distinct/],
    [
      'a short operator token',
      { OPERATOR_TOKENS: 'ops=Vx7q2LmN9pR4sT8wY3zA6bC1dE5f' },
      /token of ops is shorter than 32/,
    ],
    ['a placeholder', { OPERATOR_TOKENS: `ops=change-me-${strongToken}` }, /token of ops looks like a placeholder/],
    ['a repeated character', { OPERATOR_TOKENS: `ops=${'a'.repeat(40)}` }, /fewer than 8 distinct/],
    ['two operators of one name', { OPERATOR_TOKENS: `ops=${strongToken},ops=${strongToken}x` }, /names ops twice/],
    ['one token for two operators', { OPERATOR_TOKENS: `a=${strongToken},b=${strongToken}` }, /the same token/],
  ] as const) {
    it(`refuses ${what}, naming the variable and never showing the value`, () => {
      const start = production(overrides);
      expect(start).to.throw(ConfigError, reason);
      try {
        start();
      } catch (error) {
        for (const value of Object.values(overrides))
          expect((error as Error).message).not.to.include(value.slice(value.indexOf('=') + 1));
      }
    });
  }

  it('leaves development alone: its generated secrets are strong, a developer may set a short one', () => {
    expect(weakText('x'.repeat(31), 32)).to.match(/shorter/);
    expect(weakHexKey(strongKey)).to.equal(undefined);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's-'));
    const env = { DATA_DIR: dir, OPERATOR_TOKENS: 'ops=short-token-0123456789' };
    expect(loadSecrets(loadConfig(env), env).OPERATOR_TOKENS[0]!.token).to.equal('short-token-0123456789');
  });
});
