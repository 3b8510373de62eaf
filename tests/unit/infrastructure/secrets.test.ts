import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { loadConfig, loadSecrets } from '../../../container.js';
import { newSigningKeyJwk, readSigningKeys } from '../../../infrastructure/identity/index.js';
import { ConfigError } from '../../../infrastructure/shared/config.js';
import { loadSecrets as loadSecretsOf, type Secret } from '../../../infrastructure/shared/secrets.js';

describe('secrets', () => {
  const made: string[] = [];
  const dir = () => {
    made.push(fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-')));
    return made.at(-1)!;
  };
  after(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  /** The service's secrets as main.ts loads them, from `env` alone. */
  const load = (env: Record<string, string>) => loadSecrets(loadConfig(env), env);
  const configured = {
    OPERATOR_TOKENS: 'ops=Vx7q2LmN9pR4sT8wY3zA6bC1dE5fG0hJ',
    VOUCHER_CODE_KEY: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    CHECKOUT_CODE_KEY: '1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100',
    IDENTITY_SIGNING_KEYS: JSON.stringify([newSigningKeyJwk()]),
    ORDERS_SECRET_KEY_KEY: '202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f',
    PAYMENTS_SECRETS_KEY: '5f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
  };

  it('given production without secrets, when loaded, then it refuses naming every missing one', () => {
    const refusal = () => load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/commerce', DATA_DIR: dir() });
    expect(refusal).to.throw(ConfigError, /must be set in production/);
    for (const name of [
      'OPERATOR_TOKENS',
      'VOUCHER_CODE_KEY',
      'CHECKOUT_CODE_KEY',
      'IDENTITY_SIGNING_KEYS',
      'PAYMENTS_SECRETS_KEY',
    ])
      expect(refusal).to.throw(ConfigError, name);
  });

  it('given production with one secret missing, when loaded, then it refuses naming only that one', () => {
    const { VOUCHER_CODE_KEY: _, ...others } = configured;
    expect(() =>
      load({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/commerce', DATA_DIR: dir(), ...others }),
    ).to.throw(ConfigError, /: VOUCHER_CODE_KEY must be set in production/);
  });

  it('given development without secrets, when loaded twice, then the generated ones are kept between starts', () => {
    const d = dir();
    const first = load({ DATA_DIR: d });
    const second = load({ DATA_DIR: d });
    expect(second).to.deep.equal(first);
    expect(first.VOUCHER_CODE_KEY).to.match(/^[0-9a-f]{64}$/);
    expect(first.OPERATOR_TOKENS).to.have.length(1);
    expect(fs.statSync(path.join(d, 'dev-secrets.json')).mode & 0o077).to.equal(0);
  });

  it('given several processes starting at once on an empty DATA_DIR, when each loads its secrets, then all succeed with the same ones, kept in one whole file', async function () {
    this.timeout(120_000);
    const dirs = Array.from({ length: 6 }, () => dir());
    const processes = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/load-dev-secrets.ts'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      const ready = new Promise<void>((resolve) =>
        child.stdout.on('data', (data: Buffer) => {
          out += String(data);
          if (out.startsWith('ready\n')) resolve();
        }),
      );
      const exited = new Promise<string>((resolve, reject) =>
        child.on('exit', (code) => (code === 0 ? resolve(out.split('\n')[1]!) : reject(new Error(`exit ${code}`)))),
      );
      return { child, ready, exited };
    });
    try {
      await Promise.all(processes.map((p) => p.ready));
      // Each directory loaded by all four at the same moment, one directory every 100 ms.
      const go = JSON.stringify({ startAt: Date.now() + 100, everyMs: 100, dirs });
      for (const { child } of processes) child.stdin.end(`${go}\n`);
      const results = (await Promise.all(processes.map((p) => p.exited))).map(
        (line) => JSON.parse(line) as Array<{ secrets?: unknown; error?: string }>,
      );
      for (const [i, d] of dirs.entries()) {
        const loaded = results.map((r) => r[i]!);
        expect(
          loaded.map((r) => r.error ?? null),
          `errors in ${d}`,
        ).to.deep.equal([null, null, null, null]);
        for (const other of loaded.slice(1)) expect(other.secrets, `secrets in ${d}`).to.deep.equal(loaded[0]!.secrets);
        expect(fs.readdirSync(d)).to.deep.equal(['dev-secrets.json']);
        const kept = JSON.parse(fs.readFileSync(path.join(d, 'dev-secrets.json'), 'utf8')) as Record<string, string>;
        expect((loaded[0]!.secrets as { VOUCHER_CODE_KEY: string }).VOUCHER_CODE_KEY).to.equal(kept.voucherCodeKey);
      }
    } finally {
      for (const { child } of processes) child.kill();
    }
  });

  // The file of a developer who ran the service when the shop still had client credentials keeps them: ignored.
  it('given a dev-secrets.json written before, when loaded, then its values are the secrets (same keys as ever)', () => {
    const d = dir();
    const kept = {
      clientId: 'demo-client',
      clientSecret: 'kept-client-secret-0123',
      operatorToken: 'kept-operator-token-0123',
      voucherCodeKey: 'cd'.repeat(32),
      identitySigningKeys: JSON.stringify([newSigningKeyJwk()]),
      ordersSecretKeyKey: 'ef'.repeat(32),
      paymentsSecretsKey: 'ab'.repeat(32),
    };
    fs.writeFileSync(path.join(d, 'dev-secrets.json'), JSON.stringify(kept));
    const loaded = load({ DATA_DIR: d });
    const written = JSON.parse(fs.readFileSync(path.join(d, 'dev-secrets.json'), 'utf8')) as Record<string, string>;
    expect(loaded).to.deep.equal({
      OPERATOR_TOKENS: [{ name: 'dev-operator', token: kept.operatorToken }],
      VOUCHER_CODE_KEY: kept.voucherCodeKey,
      VOUCHER_CODE_OLD_KEYS: [],
      CHECKOUT_CODE_KEY: written.checkoutCodeKey,
      CHECKOUT_CODE_OLD_KEYS: [],
      IDENTITY_SIGNING_KEYS: readSigningKeys(kept.identitySigningKeys),
      ORDERS_SECRET_KEY_KEY: kept.ordersSecretKeyKey,
      ORDERS_SECRET_KEY_OLD_KEYS: [],
      PAYMENTS_SECRETS_KEY: kept.paymentsSecretsKey,
      PAYMENTS_SECRETS_OLD_KEYS: [],
    });
    // Its values stay; secrets declared since are added (generated keys, empty keyrings of old keys).
    expect(written).to.deep.equal({
      ...kept,
      voucherCodeOldKeys: '',
      checkoutCodeKey: written.checkoutCodeKey,
      checkoutCodeOldKeys: '',
      ordersSecretKeyOldKeys: '',
      paymentsSecretsOldKeys: '',
    });
    expect(written.checkoutCodeKey).to.match(/^[0-9a-f]{64}$/);
  });

  it('given configured secrets, when loaded, then they are used and nothing is written', () => {
    const d = dir();
    const secrets = load({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/commerce',
      DATA_DIR: d,
      ...configured,
    });
    expect(secrets).to.deep.equal({
      OPERATOR_TOKENS: [{ name: 'ops', token: 'Vx7q2LmN9pR4sT8wY3zA6bC1dE5fG0hJ' }],
      VOUCHER_CODE_KEY: configured.VOUCHER_CODE_KEY,
      VOUCHER_CODE_OLD_KEYS: [], // optional: unset in production it is an empty keyring
      CHECKOUT_CODE_KEY: configured.CHECKOUT_CODE_KEY,
      CHECKOUT_CODE_OLD_KEYS: [],
      IDENTITY_SIGNING_KEYS: readSigningKeys(configured.IDENTITY_SIGNING_KEYS),
      ORDERS_SECRET_KEY_KEY: configured.ORDERS_SECRET_KEY_KEY,
      ORDERS_SECRET_KEY_OLD_KEYS: [],
      PAYMENTS_SECRETS_KEY: configured.PAYMENTS_SECRETS_KEY,
      PAYMENTS_SECRETS_OLD_KEYS: [],
    });
    expect(fs.existsSync(path.join(d, 'dev-secrets.json'))).to.equal(false);
  });

  describe('the mechanism, for any slice', () => {
    const slice = {
      PIN: { rule: z.string().regex(/^\d{4}$/, 'four digits'), dev: { key: 'pin', generate: () => '1234' } },
      PINS: {
        rule: z.string().transform((s) => s.split(',')),
        dev: { key: 'pins', generate: () => '5678', read: (kept: string) => [kept] },
      },
    } satisfies Record<string, Secret<unknown>>;

    it('given a wrong value, when loaded, then it refuses naming the variable', () => {
      expect(() => loadSecretsOf(slice, { NODE_ENV: 'development', DATA_DIR: dir() }, { PIN: 'abc' })).to.throw(
        ConfigError,
        /PIN: four digits/,
      );
    });

    it('given a file holding other secrets, when a slice is generated, then their keys are left as they are', () => {
      const d = dir();
      fs.writeFileSync(path.join(d, 'dev-secrets.json'), JSON.stringify({ other: 'kept' }));
      const values = loadSecretsOf(slice, { NODE_ENV: 'test', DATA_DIR: d }, { PINS: '1,2' });
      expect(values).to.deep.equal({ PIN: '1234', PINS: ['1', '2'] });
      expect(JSON.parse(fs.readFileSync(path.join(d, 'dev-secrets.json'), 'utf8'))).to.deep.equal({
        other: 'kept',
        pin: '1234',
        pins: '5678',
      });
    });

    it('given a kept value breaking its rule, when loaded, then it refuses naming the file and key', () => {
      const d = dir();
      fs.writeFileSync(path.join(d, 'dev-secrets.json'), JSON.stringify({ pin: 'x', pins: '1' }));
      expect(() => loadSecretsOf(slice, { NODE_ENV: 'development', DATA_DIR: d }, {})).to.throw(
        ConfigError,
        /dev-secrets\.json: pin: four digits/,
      );
    });
  });
});
