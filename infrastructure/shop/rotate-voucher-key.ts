/**
 * `npm run voucher-key:rotate` (docs/shop-purchase.md, "Voucher codes at rest"): a new voucher code key encrypts from
 * the next start; the current one joins VOUCHER_CODE_OLD_KEYS and keeps decrypting what it wrote. Nothing in the
 * event log is re-encrypted. In development it rewrites DATA_DIR/dev-secrets.json; where VOUCHER_CODE_KEY is set in
 * the environment (production) it prints the two values to store in the secret manager, once, and changes nothing.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../shared/config.js';
import { updateKeptJson } from '../shared/kept-json-file.js';
import { loadSecrets } from '../shared/secrets.js';
import { shopSecrets } from './secrets.js';
import { voucherKeyId } from './voucher-code-cipher.js';

export interface VoucherKeyring {
  key: string;
  oldKeys: string[];
}

/** The keyring after a rotation: a fresh key, the current one first among the old (newest first), none twice. */
export function rotateVoucherKeys(ring: VoucherKeyring, fresh = randomBytes(32).toString('hex')): VoucherKeyring {
  const oldKeys = [ring.key, ...ring.oldKeys].map((k) => k.toLowerCase());
  return { key: fresh, oldKeys: oldKeys.filter((k, i) => oldKeys.indexOf(k) === i && k !== fresh) };
}

const id = (hex: string) => voucherKeyId(Buffer.from(hex, 'hex'));

function main(): void {
  const config = loadConfig();
  const secrets = loadSecrets(shopSecrets, config);
  const next = rotateVoucherKeys({ key: secrets.VOUCHER_CODE_KEY, oldKeys: secrets.VOUCHER_CODE_OLD_KEYS });
  const ids = `new key ${id(next.key)}; old keys ${next.oldKeys.map(id).join(', ')}`;
  if (process.env.VOUCHER_CODE_KEY) {
    console.log(
      [
        `Store these two values in your secret manager, then restart every process (${ids}):`,
        `VOUCHER_CODE_KEY=${next.key}`,
        `VOUCHER_CODE_OLD_KEYS=${next.oldKeys.join(',')}`,
        'Keep every old key while any event encrypted with it is to be read.',
      ].join('\n'),
    );
    return;
  }
  const file = path.resolve(config.DATA_DIR, 'dev-secrets.json');
  updateKeptJson<Record<string, string>>(file, (kept) => {
    kept[shopSecrets.VOUCHER_CODE_KEY.dev.key] = next.key;
    kept[shopSecrets.VOUCHER_CODE_OLD_KEYS.dev.key] = next.oldKeys.join(',');
    return true;
  });
  console.log(`Rotated the voucher code key in ${file} (${ids}); restart the service.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main();
