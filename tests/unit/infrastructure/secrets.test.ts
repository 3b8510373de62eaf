import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../infrastructure/shared/config.js';
import { loadSecrets } from '../../../infrastructure/shared/secrets.js';

describe('secrets', () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));

  it('given production without secrets, when loaded, then it refuses naming every missing one', () => {
    expect(() => loadSecrets(loadConfig({ NODE_ENV: 'production' }), dir())).to.throw(
      ConfigError,
      /SHOP_CLIENT_ID, SHOP_CLIENT_SECRET, OPERATOR_TOKENS, VOUCHER_CODE_KEY/,
    );
  });

  it('given development without secrets, when loaded twice, then the generated ones are kept between starts', () => {
    const d = dir();
    const first = loadSecrets(loadConfig({}), d);
    const second = loadSecrets(loadConfig({}), d);
    expect(second).to.deep.equal(first);
    expect(first.voucherCodeKey).to.match(/^[0-9a-f]{64}$/);
    expect(fs.statSync(path.join(d, 'dev-secrets.json')).mode & 0o077).to.equal(0);
  });

  it('given configured secrets, when loaded, then they are used and nothing is written', () => {
    const d = dir();
    const secrets = loadSecrets(
      loadConfig({
        NODE_ENV: 'production',
        SHOP_CLIENT_ID: 'gw',
        SHOP_CLIENT_SECRET: 'gateway-secret-0123456789',
        OPERATOR_TOKENS: 'ops=operator-token-0123456789',
        VOUCHER_CODE_KEY: 'ab'.repeat(32),
      }),
      d,
    );
    expect(secrets.shopClients).to.deep.equal([{ clientId: 'gw', clientSecret: 'gateway-secret-0123456789' }]);
    expect(secrets.operatorTokens).to.deep.equal([{ name: 'ops', token: 'operator-token-0123456789' }]);
    expect(fs.existsSync(path.join(d, 'dev-secrets.json'))).to.equal(false);
  });
});
