import { expect } from 'chai';
import { loadConfig } from '../../../../container.js';
import { gatewayEnvironmentOf } from '../../../../infrastructure/gateway/index.js';
import { ConfigError } from '../../../../infrastructure/shared/config.js';

describe('the gateway’s settings', () => {
  it('defaults: dev, 1000 requests per 10 s per party and endpoint, 30 per 10 s per user, the auto store, no trusted proxy, lookups kept 5 s', () => {
    const config = loadConfig({});
    expect(gatewayEnvironmentOf(config)).to.equal('dev');
    expect(config).to.include({
      GATEWAY_RATE_LIMIT_POINTS: 1_000,
      GATEWAY_RATE_LIMIT_WINDOW_SECONDS: 10,
      GATEWAY_USER_RATE_LIMIT_POINTS: 30,
      GATEWAY_USER_RATE_LIMIT_WINDOW_SECONDS: 10,
      GATEWAY_RATE_LIMIT_STORE: 'auto',
      GATEWAY_TRUST_PROXY: false,
      GATEWAY_LOOKUP_CACHE_MS: 5000,
    });
  });

  it('refuses to guess the environment in production', () => {
    const production = loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/commerce' });
    expect(() => gatewayEnvironmentOf(production)).to.throw(
      ConfigError,
      /GATEWAY_ENVIRONMENT must be set in production/,
    );
    expect(
      gatewayEnvironmentOf(
        loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/commerce', GATEWAY_ENVIRONMENT: 'prod' }),
      ),
    ).to.equal('prod');
    expect(() => loadConfig({ GATEWAY_ENVIRONMENT: 'staging' })).to.throw(ConfigError, /GATEWAY_ENVIRONMENT/);
  });

  it('takes a hop count or proxy addresses as trust proxy, never "true"', () => {
    expect(loadConfig({ GATEWAY_TRUST_PROXY: '1' }).GATEWAY_TRUST_PROXY).to.equal(1);
    expect(loadConfig({ GATEWAY_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).GATEWAY_TRUST_PROXY).to.equal(
      'loopback,10.0.0.0/8',
    );
    expect(() => loadConfig({ GATEWAY_TRUST_PROXY: 'true' })).to.throw(ConfigError, /GATEWAY_TRUST_PROXY/);
    expect(() => loadConfig({ GATEWAY_TRUST_PROXY: '10.0.0.0/99' })).to.throw(ConfigError, /GATEWAY_TRUST_PROXY/);
  });

  it('refuses an unknown store and a rate limit out of bounds', () => {
    expect(() => loadConfig({ GATEWAY_RATE_LIMIT_STORE: 'mongo' })).to.throw(ConfigError, /GATEWAY_RATE_LIMIT_STORE/);
    expect(() => loadConfig({ GATEWAY_RATE_LIMIT_POINTS: '0' })).to.throw(ConfigError, /GATEWAY_RATE_LIMIT_POINTS/);
    // 0 switches the per-user limit off; a negative count or a window of 0 is refused.
    expect(loadConfig({ GATEWAY_USER_RATE_LIMIT_POINTS: '0' }).GATEWAY_USER_RATE_LIMIT_POINTS).to.equal(0);
    expect(() => loadConfig({ GATEWAY_USER_RATE_LIMIT_POINTS: '-1' })).to.throw(
      ConfigError,
      /GATEWAY_USER_RATE_LIMIT_POINTS/,
    );
    expect(() => loadConfig({ GATEWAY_USER_RATE_LIMIT_WINDOW_SECONDS: '0' })).to.throw(
      ConfigError,
      /GATEWAY_USER_RATE_LIMIT_WINDOW_SECONDS/,
    );
  });
});
