import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from './config.js';

export interface Secrets {
  shopClients: { clientId: string; clientSecret: string }[];
  operatorTokens: { name: string; token: string }[];
  voucherCodeKey: string;
}

/**
 * The secrets the service needs. In production every one must be configured.
 * Elsewhere a missing one is generated once and kept in `<dataDir>/dev-secrets.json`,
 * so a developer's restarts keep the same credentials and can still decrypt
 * the voucher codes they issued.
 */
export function loadSecrets(config: Config, dataDir: string): Secrets {
  const missing = [
    !config.SHOP_CLIENT_ID && 'SHOP_CLIENT_ID',
    !config.SHOP_CLIENT_SECRET && 'SHOP_CLIENT_SECRET',
    !config.OPERATOR_TOKENS && 'OPERATOR_TOKENS',
    !config.VOUCHER_CODE_KEY && 'VOUCHER_CODE_KEY',
  ].filter(Boolean);
  if (missing.length && config.NODE_ENV === 'production')
    throw new ConfigError(`invalid configuration: ${missing.join(', ')} must be set in production`);

  const file = path.resolve(dataDir, 'dev-secrets.json');
  let dev: Record<string, string> = {};
  if (missing.length) {
    dev = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
    dev.clientId ??= 'demo-client';
    dev.clientSecret ??= randomBytes(24).toString('base64url');
    dev.operatorToken ??= randomBytes(24).toString('base64url');
    dev.voucherCodeKey ??= randomBytes(32).toString('hex');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(dev, null, 2), { mode: 0o600 });
  }
  return {
    shopClients: [
      {
        clientId: config.SHOP_CLIENT_ID ?? dev.clientId!,
        clientSecret: config.SHOP_CLIENT_SECRET ?? dev.clientSecret!,
      },
    ],
    operatorTokens: config.OPERATOR_TOKENS ?? [{ name: 'dev-operator', token: dev.operatorToken! }],
    voucherCodeKey: config.VOUCHER_CODE_KEY ?? dev.voucherCodeKey!,
  };
}
