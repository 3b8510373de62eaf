/**
 * A process that loads development secrets, for tests/unit/infrastructure/secrets.test.ts, which starts several at
 * once. It says `ready`, reads `{ startAt, everyMs, dirs }` on stdin, then loads the secrets of the shared, shop and
 * identity slices from each DATA_DIR of `dirs` at its moment (startAt + i × everyMs, the same in every process, so
 * that they all load it together), and prints per directory what it got, or the error.
 */
import { identitySecrets } from '../../infrastructure/identity/secrets.js';
import { loadSecrets, sharedSecrets } from '../../infrastructure/shared/secrets.js';
import { shopSecrets } from '../../infrastructure/shop/secrets.js';

const shape = { ...sharedSecrets, ...shopSecrets, ...identitySecrets };

process.stdout.write('ready\n');
const line = await new Promise<string>((resolve) => process.stdin.once('data', (data) => resolve(String(data))));
process.stdin.destroy();
const { startAt, everyMs, dirs } = JSON.parse(line) as { startAt: number; everyMs: number; dirs: string[] };
const results: Array<{ secrets: unknown } | { error: string }> = [];
for (const [i, dir] of dirs.entries()) {
  const at = startAt + i * everyMs;
  // Sleep to just before the moment, then spin to it: the processes start loading within a fraction of a millisecond.
  if (at - Date.now() > 5) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, at - Date.now() - 5);
  while (Date.now() < at);
  try {
    results.push({ secrets: loadSecrets(shape, { NODE_ENV: 'development', DATA_DIR: dir }, {}) });
  } catch (error) {
    results.push({ error: String(error) });
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`);
